// Shared by the hardening suite: real `next start` servers of the hardening build, an in-process sandbox,
// sign-in over HTTP with a small cookie jar, signed webhook deliveries and bounded condition polls.
import { spawn, type ChildProcess } from "node:child_process";
import { createHmac } from "node:crypto";
import { cpSync, existsSync, mkdtempSync, rmSync } from "node:fs";
import net from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";

import { inject } from "vitest";

declare module "vitest" {
  export interface ProvidedContext {
    /** A migrated embedded database folder made by the global setup; copied into each fresh DATA_DIR. */
    pgliteTemplate: string;
  }
}

import { DIST_DIR, HARDENING_KEY, ROOT } from "./constants";
import { nextStartCommand } from "@/scripts/next-start";

export { DIST_DIR, HARDENING_KEY, ROOT };
export const AUTH_SECRET = "hardening-auth-secret-9f3b7c1d5e8a2b4c6d0e1f2a3b4c5d6e";
export const DEMO = { email: "admin@fundboard.test", password: "fundboard-demo" } as const;
export const REAL_ADMIN = { email: "owner@hardening.test", password: "hardening-owner-pass-2718" } as const;

/** Ports of this suite only (others run at the same time): dashboards 3200–3289, sandboxes 4200–4289. */
export const PORTS = {
  leak: { app: 3201, sandbox: 4201 },
  crashPglite: { app: 3211, sandbox: 4211 },
  crashPostgres: { app: 3213, sandbox: 4213 },
  restart: { app: 3221, sandbox: 4221 },
  badInput: { app: 3231, sandbox: 4231 },
  faults: { app: 3241, sandbox: 4241, upstream: 4243 },
  production: { app: 3251, appStart: 3253, sandbox: 4251, service: 4253 },
  review: { app: 3261, sandbox: 4261 },
} as const;

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Polls until probe returns a value (errors count as "not yet"); fails after timeoutMs. Never a fixed sleep. */
export async function waitFor<T>(what: string, probe: () => Promise<T | undefined> | T | undefined, timeoutMs: number, everyMs = 100): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  for (;;) {
    try {
      const value = await probe();
      if (value !== undefined) return value;
    } catch (error) {
      lastError = error;
    }
    if (Date.now() > deadline) {
      const why = lastError instanceof Error ? ` (last error: ${lastError.message})` : "";
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}${why}`);
    }
    await sleep(everyMs);
  }
}

/** True when something accepts TCP connections on 127.0.0.1:port. */
export function isListening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host: "127.0.0.1", port });
    const done = (value: boolean) => {
      socket.destroy();
      resolve(value);
    };
    socket.setTimeout(1000, () => done(false));
    socket.once("connect", () => done(true));
    socket.once("error", () => done(false));
  });
}

export async function assertPortsFree(...ports: number[]): Promise<void> {
  for (const port of ports) {
    if (await isListening(port)) throw new Error(`port ${port} is already in use (a leftover from an earlier run?); the hardening suite needs it free`);
  }
}

// ---------------------------------------------------------------------------------------------------
// Processes

export interface Managed {
  child: ChildProcess;
  pid: number;
  /** Everything it printed so far (stdout and stderr, interleaved). */
  output(): string;
  readonly exited: boolean;
  /** Resolves with the exit code (null when killed by a signal) and signal. */
  exit: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** SIGTERM (or the given signal) to its whole process group, SIGKILL after 10 s; resolves once it exited. */
  stop(signal?: NodeJS.Signals): Promise<void>;
}

const running = new Set<Managed>();

function killGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch {
    // Already gone.
  }
}

// Last resort if a test file dies: nothing it started may outlive it.
process.on("exit", () => {
  for (const m of running) killGroup(m.pid, "SIGKILL");
});

/** Starts a process in its own process group, capturing its output. */
export function launch(command: string, args: string[], env: NodeJS.ProcessEnv): Managed {
  const child = spawn(command, args, { cwd: ROOT, env, stdio: ["ignore", "pipe", "pipe"], detached: true });
  if (child.pid === undefined) throw new Error(`could not start ${command}`);
  const pid = child.pid;
  let text = "";
  const keep = (chunk: Buffer) => {
    text = (text + chunk.toString("utf8")).slice(-200_000);
  };
  child.stdout?.on("data", keep);
  child.stderr?.on("data", keep);
  let exited = false;
  const exit = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    child.once("exit", (code, signal) => {
      exited = true;
      running.delete(managed);
      resolve({ code, signal });
    });
  });
  const managed: Managed = {
    child,
    pid,
    output: () => text,
    get exited() {
      return exited;
    },
    exit,
    async stop(signal: NodeJS.Signals = "SIGTERM") {
      if (!exited) {
        killGroup(pid, signal);
        const force = setTimeout(() => killGroup(pid, "SIGKILL"), 10_000);
        await exit;
        clearTimeout(force);
      }
      // Anything it spawned in its group goes too.
      killGroup(pid, "SIGKILL");
    },
  };
  running.add(managed);
  return managed;
}

export function bin(name: string): string {
  return path.join(ROOT, "node_modules", ".bin", name);
}

/** A minimal environment: nothing from the developer's shell (a stray DATABASE_URL, say) leaks in. */
export function baseEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH ?? "",
    HOME: process.env.HOME ?? "",
    TMPDIR: process.env.TMPDIR ?? tmpdir(),
    NODE_ENV: "production",
    NEXT_TELEMETRY_DISABLED: "1",
    ...extra,
  };
}

export function tempDir(label: string): { dir: string; remove(): void } {
  const dir = mkdtempSync(path.join(tmpdir(), `fundboard-hardening-${label}-`));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** A fresh DATA_DIR holding a copy of the migrated template database (only the database: no lock, no secret). */
export function freshDataDir(label: string): { dir: string; remove(): void } {
  const made = tempDir(label);
  const template = inject("pgliteTemplate");
  cpSync(path.join(template, "pgdata"), path.join(made.dir, "pgdata"), { recursive: true });
  return made;
}

export interface Dashboard extends Managed {
  port: number;
  url: string;
  /** Milliseconds from spawn to the first healthy answer. */
  readyMs: number;
}

export interface DashboardOptions {
  port: number;
  /** Where the embedded database lives (ignored by the app when DATABASE_URL is set). */
  dataDir: string;
  env: Record<string, string>;
  readyTimeoutMs?: number;
}

/** Sandbox mode: no SERVICE_BASE_URL; the app calls 127.0.0.1:sandboxPort (+1 for verify) with the key. */
export function sandboxModeEnv(sandboxPort: number, extra: Record<string, string> = {}): Record<string, string> {
  return { SANDBOX_PORT: String(sandboxPort), SERVICE_API_KEY: HARDENING_KEY, ...extra };
}

/** `next start` of the hardening build, waited for on GET /api/health (bounded). */
export async function startDashboard(opts: DashboardOptions): Promise<Dashboard> {
  if (!existsSync(path.join(ROOT, DIST_DIR, "BUILD_ID"))) throw new Error(`No build in ${DIST_DIR}: the hardening global setup builds it (npm run test:hardening).`);
  await assertPortsFree(opts.port);
  const started = Date.now();
  const url = `http://localhost:${opts.port}`;
  const next = nextStartCommand(ROOT, opts.port);
  const managed = launch(
    next.command,
    next.args,
    baseEnv({
      NODE_ENV: "production",
      NEXT_DIST_DIR: DIST_DIR,
      PORT: String(opts.port),
      APP_URL: url,
      DATA_DIR: opts.dataDir,
      ...opts.env,
    }),
  );
  try {
    await waitFor(
      `the dashboard on ${opts.port} to answer /api/health`,
      async () => {
        if (managed.exited) throw new Error(`it exited:\n${managed.output().slice(-3000)}`);
        const res = await fetch(`${url}/api/health`, { signal: AbortSignal.timeout(5000) });
        return res.status === 200 ? true : undefined;
      },
      opts.readyTimeoutMs ?? 90_000,
      150,
    );
  } catch (error) {
    await managed.stop("SIGKILL");
    throw new Error(`${error instanceof Error ? error.message : String(error)}\n--- output ---\n${managed.output().slice(-3000)}`);
  }
  return Object.assign(managed, { port: opts.port, url, readyMs: Date.now() - started });
}

// ---------------------------------------------------------------------------------------------------
// HTTP with a session

let addressCounter = 0;
/** A distinct pretend client address per sign-in keeps clear of the per-address sign-in throttle. */
export function fakeAddress(): string {
  addressCounter += 1;
  return `198.18.${Math.floor(addressCounter / 250) % 250}.${(addressCounter % 250) + 1}`;
}

export interface Session {
  url: string;
  cookie(): string;
  /** fetch against the dashboard with the session cookie (and Origin on anything but GET/HEAD). */
  fetch(pathOrUrl: string, init?: RequestInit): Promise<Response>;
  json<T>(pathOrUrl: string, init?: RequestInit): Promise<{ status: number; body: T; headers: Headers }>;
}

export class CookieJar {
  private readonly jar = new Map<string, string>();

  keep(res: Response): void {
    for (const line of res.headers.getSetCookie()) {
      const [pair] = line.split(";");
      const eq = pair?.indexOf("=") ?? -1;
      if (!pair || eq <= 0) continue;
      const name = pair.slice(0, eq).trim();
      const value = pair.slice(eq + 1).trim();
      if (value === "" || /max-age=0/i.test(line)) this.jar.delete(name);
      else this.jar.set(name, value);
    }
  }

  header(): string {
    return [...this.jar].map(([k, v]) => `${k}=${v}`).join("; ");
  }
}

export interface SignInResult {
  ok: boolean;
  status: number;
  location: string;
  session: Session;
}

/** Signs in the way the sign-in form's endpoint does (GET csrf, POST the credentials callback), keeping cookies. */
export async function trySignIn(url: string, email: string, password: string): Promise<SignInResult> {
  const jar = new CookieJar();
  const address = fakeAddress();
  const csrf = await fetch(`${url}/api/auth/csrf`, { headers: { "x-forwarded-for": address } });
  jar.keep(csrf);
  const { csrfToken } = (await csrf.json()) as { csrfToken: string };
  const res = await fetch(`${url}/api/auth/callback/credentials`, {
    method: "POST",
    redirect: "manual",
    headers: { "content-type": "application/x-www-form-urlencoded", cookie: jar.header(), "x-forwarded-for": address },
    body: new URLSearchParams({ email, password, csrfToken, callbackUrl: "/" }).toString(),
  });
  jar.keep(res);
  const location = res.headers.get("location") ?? "";
  const session = makeSession(url, jar, address);
  const ok = res.status === 302 && !location.includes("error=") && jar.header().includes("session-token");
  return { ok, status: res.status, location, session };
}

export async function signIn(url: string, email: string, password: string): Promise<Session> {
  const result = await trySignIn(url, email, password);
  if (!result.ok) throw new Error(`sign-in of ${email} at ${url} failed: ${result.status} ${result.location}`);
  return result.session;
}

function makeSession(url: string, jar: CookieJar, address: string): Session {
  const doFetch = async (pathOrUrl: string, init: RequestInit = {}) => {
    const headers = new Headers(init.headers);
    if (!headers.has("cookie") && jar.header() !== "") headers.set("cookie", jar.header());
    headers.set("x-forwarded-for", address);
    const method = (init.method ?? "GET").toUpperCase();
    if (method !== "GET" && method !== "HEAD" && !headers.has("origin")) headers.set("origin", url);
    const res = await fetch(pathOrUrl.startsWith("http") ? pathOrUrl : `${url}${pathOrUrl}`, { redirect: "manual", ...init, headers });
    jar.keep(res);
    return res;
  };
  return {
    url,
    cookie: () => jar.header(),
    fetch: doFetch,
    async json<T>(pathOrUrl: string, init?: RequestInit) {
      const res = await doFetch(pathOrUrl, init);
      const text = await res.text();
      let body: T;
      try {
        body = JSON.parse(text) as T;
      } catch {
        throw new Error(`${init?.method ?? "GET"} ${pathOrUrl} answered ${res.status} with a body that is not JSON: ${text.slice(0, 300)}`);
      }
      return { status: res.status, body, headers: res.headers };
    },
  };
}

export interface Envelope<T = unknown> {
  status: boolean;
  message: string;
  data: T;
}

export function isEnvelope(value: unknown): value is Envelope {
  if (typeof value !== "object" || value === null) return false;
  const v = value as Record<string, unknown>;
  return typeof v.status === "boolean" && typeof v.message === "string" && "data" in v;
}

export interface ListData<T> {
  items: T[];
  page: number;
  pageSize: number;
  total: number;
}

export interface FundRequestView {
  requestId: string | null;
  reference: string;
  tag: string;
  amount: string;
  description: string;
  status: "sending" | "pending" | "accepted" | "declined" | "failed";
}

/** Creates a fund request through the dashboard's own API (as a signed-in admin or operator). */
export async function createRequest(session: Session, input: { tag: string; amount: number | string; description: string }): Promise<FundRequestView> {
  const key = `hard_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 10)}`;
  const res = await session.json<Envelope<FundRequestView>>("/api/requests", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ ...input, idempotencyKey: key }),
  });
  if (res.status !== 201) throw new Error(`POST /api/requests answered ${res.status}: ${JSON.stringify(res.body).slice(0, 400)}`);
  return res.body.data;
}

// ---------------------------------------------------------------------------------------------------
// The service's side

/** Headers of a correctly signed delivery: lower-case hex HMAC-SHA512 of the exact body with the key. */
export function signedHeaders(body: string, key = HARDENING_KEY): Record<string, string> {
  return { "content-type": "application/json", "x-service-signature": createHmac("sha512", key).update(body).digest("hex") };
}

export type FaultMode = "500" | "429" | "timeout" | "malformed" | "slow";
export const BALANCE_PATH = "/api/v1/business/balance";
/** The create path is a prefix of the fetch path, so fetch faults use the trailing slash. */
export const FETCH_PATH = "/api/v1/transfer/request/peer/";
export const FETCH_CALL = "GET /api/v1/transfer/request/peer/:request_id";
export const BALANCE_CALL = "GET /api/v1/business/balance";

/** The sandbox's control API (no key) at its API host. */
export function control(apiUrl: string) {
  async function call<T>(method: "GET" | "POST", p: string, body?: unknown): Promise<T> {
    const res = await fetch(`${apiUrl}${p}`, {
      method,
      headers: body === undefined ? {} : { "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    if (res.status !== 200) throw new Error(`sandbox ${method} ${p} answered ${res.status}: ${text.slice(0, 300)}`);
    return JSON.parse(text) as T;
  }
  return {
    fault: (p: string, mode: FaultMode, count?: number) => call("POST", "/sandbox/faults", { path: p, mode, ...(count === undefined ? {} : { count }) }),
    clearFaults: () => call("POST", "/sandbox/faults/clear"),
    resetStats: () => call("POST", "/sandbox/stats/reset"),
    calls: async () => (await call<{ calls: Record<string, number> }>("GET", "/sandbox/stats")).calls,
    accept: (id: string) => call("POST", `/sandbox/requests/${id}/accept`),
    decline: (id: string) => call("POST", `/sandbox/requests/${id}/decline`),
    requests: async () =>
      (await call<{ data: { requests: { request_id: string; request_status: string }[] } }>("GET", "/sandbox/requests")).data.requests,
  };
}

/** Fails loudly in CI without Postgres; elsewhere a missing TEST_DATABASE_URL only skips the Postgres cases. */
export function postgresBaseUrl(): string | undefined {
  const url = process.env.TEST_DATABASE_URL;
  if (process.env.CI && !url) throw new Error("CI must set TEST_DATABASE_URL: the hardening suite runs its Postgres cases there (see .ci/run).");
  return url;
}

/** Every form the key could take on the wire: itself, and its base64 / base64url at each byte alignment. */
export function keyNeedles(key: string): string[] {
  const needles = new Set<string>([key]);
  const bytes = Buffer.from(key, "utf8");
  for (let shift = 0; shift < 3; shift++) {
    const padded = Buffer.concat([Buffer.alloc(shift, 0x41), bytes]);
    const encoded = padded.toString("base64");
    // Drop the characters that depend on the neighbouring bytes: the rest appears whatever surrounds the key.
    const first = Math.ceil((shift * 8) / 6);
    const last = Math.floor((padded.length * 8) / 6);
    const core = encoded.slice(first, last);
    needles.add(core);
    needles.add(core.replace(/\+/g, "-").replace(/\//g, "_"));
  }
  return [...needles];
}
