// Starts real `next start` instances of the hardening build, and signs in to them over HTTP.
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { nextStartCommand } from "@/scripts/next-start";

export const ROOT = path.resolve(import.meta.dirname, "..", "..");
export const DIST_DIR = process.env.SCALEOUT_DIST_DIR ?? ".next-hardening";

export interface Instance {
  port: number;
  url: string;
  child: ChildProcess;
  output: string[];
  stop(signal?: NodeJS.Signals): Promise<void>;
}

export function requireBuild(): void {
  if (!existsSync(path.join(ROOT, DIST_DIR, "BUILD_ID"))) {
    throw new Error(`No build in ${DIST_DIR}: the hardening global setup must run first (npm run test:hardening).`);
  }
}

export async function waitUntil<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs: number, everyMs = 100): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe().catch(() => undefined);
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

export async function startInstance(port: number, env: Record<string, string>): Promise<Instance> {
  const output: string[] = [];
  const next = nextStartCommand(ROOT, port);
  const child = spawn(next.command, next.args, {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH ?? "",
      HOME: process.env.HOME ?? "",
      NODE_ENV: "production",
      NEXT_TELEMETRY_DISABLED: "1",
      NEXT_DIST_DIR: DIST_DIR,
      PORT: String(port),
      APP_URL: `http://localhost:${port}`,
      DATA_DIR: mkdtempSync(path.join(tmpdir(), "fundboard-scale-")),
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  child.stdout?.on("data", (d: Buffer) => output.push(d.toString()));
  child.stderr?.on("data", (d: Buffer) => output.push(d.toString()));
  const url = `http://localhost:${port}`;
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  await waitUntil(`instance on ${port} (output: ${output.join("").slice(-500)})`, async () => ((await fetch(`${url}/api/health`)).ok ? true : undefined), 60_000);
  return {
    port,
    url,
    child,
    output,
    async stop(signal: NodeJS.Signals = "SIGTERM") {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      await exited;
    },
  };
}

let ipCounter = 0;

/** Signs in over HTTP (csrf + credentials callback) and returns the Cookie header to send. */
export async function signIn(url: string, email: string, password: string): Promise<string> {
  ipCounter += 1;
  const ip = `203.0.113.${(ipCounter % 200) + 20}`;
  const jar = new Map<string, string>();
  const keep = (res: Response) => {
    for (const line of res.headers.getSetCookie()) {
      const [pair] = line.split(";");
      const eq = pair?.indexOf("=") ?? -1;
      if (pair && eq > 0) jar.set(pair.slice(0, eq), pair.slice(eq + 1));
    }
  };
  const cookie = () => [...jar].map(([k, v]) => `${k}=${v}`).join("; ");
  const csrf = await fetch(`${url}/api/auth/csrf`, { headers: { "x-forwarded-for": ip } });
  keep(csrf);
  const { csrfToken } = (await csrf.json()) as { csrfToken: string };
  const res = await fetch(`${url}/api/auth/callback/credentials`, {
    method: "POST",
    redirect: "manual",
    headers: { "content-type": "application/x-www-form-urlencoded", cookie: cookie(), "x-forwarded-for": ip },
    body: new URLSearchParams({ email, password, csrfToken, callbackUrl: "/" }).toString(),
  });
  keep(res);
  if (res.status !== 302 || (res.headers.get("location") ?? "").includes("error=")) throw new Error(`sign-in to ${url} failed: ${res.status} ${res.headers.get("location")}`);
  return cookie();
}

/** An SSE client that collects events until closed. */
export function openLive(url: string, cookie: string) {
  const controller = new AbortController();
  const events: { type: string; data: Record<string, unknown>; at: number }[] = [];
  const opened = (async () => {
    const res = await fetch(`${url}/api/live`, { headers: { cookie }, signal: controller.signal });
    if (!res.ok || !res.body) throw new Error(`live answered ${res.status}`);
    return res.body.getReader();
  })();
  const pump = opened.then(async (reader) => {
    const decoder = new TextDecoder();
    let buffer = "";
    for (;;) {
      const { done, value } = await reader.read().catch(() => ({ done: true, value: undefined }));
      if (done) return;
      buffer += decoder.decode(value, { stream: true });
      let cut: number;
      while ((cut = buffer.indexOf("\n\n")) >= 0) {
        const block = buffer.slice(0, cut);
        buffer = buffer.slice(cut + 2);
        const type = /^event: (.+)$/m.exec(block)?.[1];
        const data = /^data: (.+)$/m.exec(block)?.[1];
        if (type && data) events.push({ type, data: JSON.parse(data) as Record<string, unknown>, at: Date.now() });
      }
    }
  });
  return {
    events,
    ready: opened.then(() => undefined),
    close() {
      controller.abort();
      return pump.catch(() => undefined);
    },
  };
}
