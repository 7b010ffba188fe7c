import { processSingleton } from "@/lib/util/process-singleton";
import "server-only";

import { randomBytes } from "node:crypto";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";

import { DEV_API_KEY } from "./dev-key";
import type { AmountUnit } from "@/lib/client/money";

import { envSchema } from "./schema";

export interface AppConfig {
  nodeEnv: "development" | "production" | "test";
  /** Sandbox mode is on exactly when SERVICE_BASE_URL is unset. */
  sandbox: boolean;
  service: { baseUrl: string; verifyBaseUrl: string; apiKey: string; amountUnit: AmountUnit };
  appUrl: string;
  webhookUrl: string;
  port: number;
  /** Where `npm start` listens: HOST, else 127.0.0.1 in sandbox mode and every interface (0.0.0.0) otherwise. */
  host: string;
  sandboxPort: number;
  database: { kind: "pglite"; dataDir: string } | { kind: "postgres"; url: string };
  dataDir: string;
  /** Unset only in sandbox mode before `resolveAuthSecret` fills it from DATA_DIR. */
  authSecret: string | undefined;
  /** `reset`: ADMIN_RESET=1, so an existing ADMIN_EMAIL account is re-enabled with ADMIN_PASSWORD at this start. */
  admin: { email: string; password: string; reset: boolean } | undefined;
  /** Proxies in front of us whose X-Forwarded-For entries are believed (0: none, the socket's address counts). */
  trustProxy: number;
  /** Calls a minute to the API host for the whole deployment, every instance and job together. */
  serviceRateLimitPerMin: number;
  /** DELIVERY_LOG_DAYS: delivery-log rows older than this many days are pruned. */
  deliveryLogDays: number;
  /** TIMEZONE: the IANA zone every time is shown in and every day (today, reports, filters) is counted in. */
  timeZone: string;
  /** LOST_WEBHOOK_MINUTES: an accepted request with no payment this long after is an `accepted_without_payment` exception. */
  lostWebhookMinutes: number;
  /** SESSION_MAX_DAYS: a session ends this long after its sign-in, however active. */
  sessionMaxDays: number;
  /** WORKERS: false (WORKERS=0) makes a web-only instance: it queues jobs but works none (`npm run worker` does). */
  workers: boolean;
  /**
   * Notification e-mail (docs/architecture.md "E-mail"): `url` is SMTP_URL, in sandbox mode by default the sandbox's
   * mail sink on SANDBOX_PORT+2; null when e-mail is off (live mode without SMTP_URL: notifications stay in the dashboard).
   */
  mail: { url: string | null; from: string };
  /** WEBHOOK_ALLOW_PRIVATE=1: outgoing webhooks may reach private addresses in live mode (never link-local or metadata). */
  webhookAllowPrivate: boolean;
  warnings: string[];
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Fundboard cannot start: configuration problem${problems.length > 1 ? "s" : ""}:\n${problems.map((p) => `  - ${p}`).join("\n")}`);
    this.name = "ConfigError";
  }
}

const TRIMMED = [
  "SERVICE_BASE_URL",
  "SERVICE_VERIFY_BASE_URL",
  "SERVICE_API_KEY",
  "APP_URL",
  "DATABASE_URL",
  "AUTH_SECRET",
  "ADMIN_EMAIL",
  "SMTP_URL",
  "MAIL_FROM",
] as const;

/** Parses the environment (the README's Configuration). Pure: no files touched. Throws ConfigError naming each bad variable. */
export function parseConfig(env: Record<string, string | undefined>): AppConfig {
  const warnings: string[] = [];
  const input: Record<string, string | undefined> = {};
  for (const [key, value] of Object.entries(env)) {
    // An empty variable means "unset", as a shell `FOO=` usually intends.
    input[key] = value === "" ? undefined : value;
  }
  for (const key of TRIMMED) {
    const value = input[key];
    if (value !== undefined && value !== value.trim()) {
      warnings.push(`${key} had surrounding whitespace (a stray space or newline); it was trimmed.`);
      input[key] = value.trim() === "" ? undefined : value.trim();
    }
  }

  const parsed = envSchema.safeParse(input);
  if (!parsed.success) {
    throw new ConfigError(parsed.error.issues.map((i) => `${String(i.path[0] ?? "environment")} ${i.message}`));
  }
  const e = parsed.data;
  const sandbox = e.SERVICE_BASE_URL === undefined;
  const problems: string[] = [];

  if (!sandbox) {
    if (!e.SERVICE_API_KEY) problems.push("SERVICE_API_KEY is required when SERVICE_BASE_URL is set");
    if (e.SERVICE_API_KEY === DEV_API_KEY) problems.push("SERVICE_API_KEY is the sandbox development key; use the key the service issued");
    if (!e.SERVICE_VERIFY_BASE_URL) problems.push("SERVICE_VERIFY_BASE_URL is required when SERVICE_BASE_URL is set (the service's verify host)");
    if (!e.AUTH_SECRET) problems.push("AUTH_SECRET is required when SERVICE_BASE_URL is set (generate one with `openssl rand -base64 32`)");
  }
  if (e.NODE_ENV === "production" && !e.APP_URL && !sandbox) {
    problems.push("APP_URL is required in production with a real service (the service must reach APP_URL/api/webhooks/peer-transfer)");
  }
  if ((e.ADMIN_EMAIL === undefined) !== (e.ADMIN_PASSWORD === undefined)) {
    problems.push(
      `${e.ADMIN_EMAIL === undefined ? "ADMIN_EMAIL" : "ADMIN_PASSWORD"} must be set together with ${e.ADMIN_EMAIL === undefined ? "ADMIN_PASSWORD" : "ADMIN_EMAIL"}`,
    );
  }
  if (e.WORKERS === "0" && !e.DATABASE_URL) {
    problems.push(
      "WORKERS=0 needs DATABASE_URL: the embedded database opens in one process only, so no `npm run worker` could work its jobs (unset WORKERS, or use Postgres)",
    );
  }
  if (problems.length > 0) throw new ConfigError(problems);

  const sandboxApi = `http://127.0.0.1:${e.SANDBOX_PORT}`;
  const sandboxVerify = `http://127.0.0.1:${e.SANDBOX_PORT + 1}`;
  const appUrl = e.APP_URL ?? `http://localhost:${e.PORT}`;
  const dataDir = path.resolve(e.DATA_DIR);
  const mailUrl = e.SMTP_URL ?? (sandbox ? `smtp://127.0.0.1:${e.SANDBOX_PORT + 2}` : null);
  if (mailUrl === null) {
    warnings.push("e-mail is off: SMTP_URL is unset, so notifications stay in the dashboard (set SMTP_URL, e.g. smtp://user:pass@mail.example.com:587).");
  }

  return {
    nodeEnv: e.NODE_ENV,
    sandbox,
    service: {
      baseUrl: e.SERVICE_BASE_URL ?? sandboxApi,
      verifyBaseUrl: e.SERVICE_VERIFY_BASE_URL ?? (sandbox ? sandboxVerify : ""),
      apiKey: e.SERVICE_API_KEY ?? DEV_API_KEY,
      amountUnit: e.SERVICE_AMOUNT_UNIT,
    },
    appUrl,
    webhookUrl: `${appUrl}/api/webhooks/peer-transfer`,
    port: e.PORT,
    host: e.HOST ?? (sandbox ? "127.0.0.1" : "0.0.0.0"),
    sandboxPort: e.SANDBOX_PORT,
    database: e.DATABASE_URL ? { kind: "postgres", url: e.DATABASE_URL } : { kind: "pglite", dataDir },
    dataDir,
    authSecret: e.AUTH_SECRET,
    admin: e.ADMIN_EMAIL && e.ADMIN_PASSWORD ? { email: e.ADMIN_EMAIL.toLowerCase(), password: e.ADMIN_PASSWORD, reset: e.ADMIN_RESET === "1" } : undefined,
    trustProxy: e.TRUST_PROXY,
    serviceRateLimitPerMin: e.SERVICE_RATE_LIMIT_PER_MIN,
    deliveryLogDays: e.DELIVERY_LOG_DAYS,
    sessionMaxDays: e.SESSION_MAX_DAYS,
    workers: e.WORKERS === "1",
    lostWebhookMinutes: e.LOST_WEBHOOK_MINUTES,
    timeZone: e.TIMEZONE,
    mail: { url: mailUrl, from: e.MAIL_FROM },
    webhookAllowPrivate: e.WEBHOOK_ALLOW_PRIVATE === "1",
    warnings,
  };
}

/** In sandbox mode, AUTH_SECRET defaults to one generated once into DATA_DIR. */
export function resolveAuthSecret(config: AppConfig): string {
  if (config.authSecret) return config.authSecret;
  if (!config.sandbox) throw new ConfigError(["AUTH_SECRET is required when SERVICE_BASE_URL is set"]);
  const file = path.join(config.dataDir, "auth-secret");
  try {
    return readFileSync(file, "utf8").trim();
  } catch {
    mkdirSync(config.dataDir, { recursive: true });
    const secret = randomBytes(32).toString("base64url");
    try {
      writeFileSync(file, `${secret}\n`, { mode: 0o600, flag: "wx" });
      return secret;
    } catch {
      // Another process wrote it first: use theirs so sessions stay valid across both.
      return readFileSync(file, "utf8").trim();
    }
  }
}

/** The configuration, parsed once per process (a configuration that does not parse is not kept: each ask says why). */
export function getConfig(): AppConfig & { authSecret: string } {
  return processSingleton("config", () => {
    const config = parseConfig(process.env);
    return { ...config, authSecret: resolveAuthSecret(config) };
  });
}
