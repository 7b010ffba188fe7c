// `npm start`: build if needed, start the sandbox (unless a real service is configured) and the dashboard.
import { spawn, type ChildProcess } from "node:child_process";
import path from "node:path";

import { DEMO_ADMIN } from "@/lib/auth/demo";
import { ConfigError, parseConfig } from "@/lib/config";

import { buildIfNeeded } from "./build-if-needed";
import { nextStartCommand } from "./next-start";

const root = path.resolve(import.meta.dirname, "..");
const bin = (name: string) => path.join(root, "node_modules", ".bin", name);
const log = (line: string) => console.log(`[fundboard] ${line}`);

let config;
try {
  config = parseConfig(process.env);
} catch (error) {
  if (error instanceof ConfigError) {
    console.error(`\n${error.message}\n`);
    process.exit(1);
  }
  throw error;
}
for (const warning of config.warnings) console.warn(`[config] ${warning}`);

try {
  buildIfNeeded(root, log);
} catch (error) {
  console.error(`\n${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
}

const children: ChildProcess[] = [];
let stopping = false;

function stopAll(code: number): void {
  if (stopping) return;
  stopping = true;
  for (const child of children) if (child.exitCode === null) child.kill("SIGTERM");
  // Give the dashboard time to close the database cleanly, then make sure nothing lingers.
  const force = setTimeout(() => {
    for (const child of children) if (child.exitCode === null) child.kill("SIGKILL");
    process.exit(code);
  }, 8000);
  force.unref();
  Promise.all(children.map((c) => (c.exitCode !== null ? Promise.resolve() : new Promise((r) => c.once("exit", r))))).then(() => process.exit(code));
}

process.on("SIGINT", () => stopAll(0));
process.on("SIGTERM", () => stopAll(0));

function start(name: string, command: string, args: string[], env: NodeJS.ProcessEnv): ChildProcess {
  const child = spawn(command, args, { cwd: root, env, stdio: "inherit" });
  children.push(child);
  child.on("exit", (code, signal) => {
    if (stopping) return;
    console.error(`[fundboard] ${name} stopped (${signal ?? `exit code ${code}`}); stopping everything.`);
    stopAll(code === 0 ? 1 : (code ?? 1));
  });
  return child;
}

async function waitFor(url: string, what: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline && !stopping) {
    try {
      const res = await fetch(url, { signal: AbortSignal.timeout(2000) });
      if (res.ok) return;
    } catch {
      // Not listening yet.
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  if (!stopping) {
    console.error(`[fundboard] ${what} did not become ready at ${url} within ${timeoutMs / 1000} s.`);
    stopAll(1);
  }
}

const env: NodeJS.ProcessEnv = { ...process.env, NEXT_TELEMETRY_DISABLED: "1" };
const sandboxUrl = `http://127.0.0.1:${config.sandboxPort}`;

if (config.sandbox) {
  start("the sandbox", bin("tsx"), ["sandbox/main.ts"], {
    ...env,
    SANDBOX_PORT: String(config.sandboxPort),
    SERVICE_API_KEY: config.service.apiKey,
    SERVICE_AMOUNT_UNIT: config.service.amountUnit,
  });
  await waitFor(`${sandboxUrl}/sandbox/stats`, "The sandbox", 30_000);
}

const next = nextStartCommand(root, config.port, config.host);
start("the dashboard", next.command, next.args, { ...env, NODE_ENV: "production" });
await waitFor(`http://127.0.0.1:${config.port}/api/health`, "The dashboard", 120_000);

if (!stopping) {
  const lines = [
    "",
    `Fundboard is ready: ${config.appUrl}`,
    config.sandbox
      ? `Sandbox service:  ${sandboxUrl} (consumer app at ${sandboxUrl}/, verify host http://127.0.0.1:${config.sandboxPort + 1})`
      : `Service:          ${config.service.baseUrl}`,
    config.sandbox && config.mail.url === `smtp://127.0.0.1:${config.sandboxPort + 2}`
      ? `E-mail:           to the sandbox's mail sink; read it at ${sandboxUrl}/mail`
      : `E-mail:           ${config.mail.url === null ? "off (SMTP_URL is unset)" : `by SMTP to ${new URL(config.mail.url).host}`}`,
    config.sandbox ? `API key in use:   ${config.service.apiKey}` : `API key in use:   …${config.service.apiKey.slice(-4)}`,
    `Webhook URL:      ${config.webhookUrl}`,
    config.admin
      ? `Sign in as:       ${config.admin.email} (ADMIN_PASSWORD)`
      : config.sandbox
        ? `Demo sign-in:     ${DEMO_ADMIN.email} / ${DEMO_ADMIN.password}`
        : "Sign in with an account made by `npm run user:create` or ADMIN_EMAIL/ADMIN_PASSWORD.",
    "Press Ctrl-C to stop.",
    "",
  ];
  console.log(lines.join("\n"));
}
