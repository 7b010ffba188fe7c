// Issue 7, item 6: NODE_ENV=production with a real service configured. A sandbox on its own ports plays
// "the real service" here; what matters is that Fundboard treats it as one.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { DEMO_ADMIN } from "@/lib/auth/demo";
import { startSandbox, type Sandbox } from "@/sandbox/server";
import { freePortRun, isListening, untilClosed } from "@/tests/support/ports";
import { signIn } from "@/tests/support/sign-in";

import { npmStart } from "./npm-start";

const PORT = await freePortRun();
const SERVICE_PORT = await freePortRun(3);
/** Where a sandbox would listen if one were (wrongly) started. */
const SANDBOX_PORT = await freePortRun(3);
const KEY = "sk_live_production_refusals_0123456789";

describe("production with a real service configured", () => {
  let service: Sandbox;
  const dirs: string[] = [];
  const env = (extra: Record<string, string> = {}) => {
    const dataDir = mkdtempSync(path.join(tmpdir(), "fundboard-prod-"));
    dirs.push(dataDir);
    return {
      PORT: String(PORT),
      APP_URL: `http://localhost:${PORT}`,
      SANDBOX_PORT: String(SANDBOX_PORT),
      DATA_DIR: dataDir,
      SERVICE_BASE_URL: service.apiUrl,
      SERVICE_VERIFY_BASE_URL: service.verifyUrl,
      SERVICE_API_KEY: KEY,
      ...extra,
    };
  };

  beforeAll(async () => {
    service = await startSandbox({ port: SERVICE_PORT, apiKey: KEY, log: () => {} });
  });
  afterAll(async () => {
    await service?.close();
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  it("a missing AUTH_SECRET stops the start with a message naming it, and nothing is left listening", async () => {
    const run = npmStart(env());
    try {
      const ended = await run.exited;
      const out = run.output();
      expect(ended, out.slice(-2000)).not.toBe("code 0");
      expect(out).toMatch(/AUTH_SECRET is required/);
      expect(out).not.toMatch(/\n\s+at .+:\d+:\d+/); // no stack trace
      expect(await isListening(PORT)).toBe(false);
      expect(await isListening(SANDBOX_PORT)).toBe(false);
    } finally {
      run.kill();
    }
  });

  it("starts no sandbox and creates no demo admin", async () => {
    const run = npmStart(env({ AUTH_SECRET: "production-refusals-auth-secret-0123456789abcdef" }));
    try {
      await run.ready;
      const out = run.output();
      expect(out, out.slice(-2000)).toContain(`Fundboard is ready: http://localhost:${PORT}`);
      expect(out).toContain(`Service:          ${service.apiUrl}`);
      expect(out).not.toContain(DEMO_ADMIN.email);
      expect(out).not.toContain(KEY); // only its last four characters
      expect(await isListening(SANDBOX_PORT)).toBe(false);
      expect(await isListening(SANDBOX_PORT + 1)).toBe(false);
      const health = await fetch(`http://localhost:${PORT}/api/health`);
      expect(health.status).toBe(200);
      await expect(signIn(`http://localhost:${PORT}`, DEMO_ADMIN.email, DEMO_ADMIN.password)).rejects.toThrow(/sign-in .* failed/);
      run.interrupt();
      expect(["code 0", "SIGINT"]).toContain(await run.exited);
      await untilClosed(PORT);
    } finally {
      run.kill();
    }
  });

  it("a database remembers its first mode: sandbox data never opens live, and a live database never opens as a sandbox", async () => {
    const live = env({ AUTH_SECRET: "production-refusals-auth-secret-0123456789abcdef" });
    const { SERVICE_BASE_URL: _base, SERVICE_VERIFY_BASE_URL: _verify, SERVICE_API_KEY: _key, ...sandboxEnv } = live;
    const ends = async (run: ReturnType<typeof npmStart>) => {
      const ended = await run.exited;
      expect(ended, run.output().slice(-2000)).not.toBe("code 0");
      expect(run.output()).not.toMatch(/\n\s+at .+:\d+:\d+/); // no stack trace
      expect(await isListening(PORT)).toBe(false);
      return run.output();
    };

    // Sandbox first, then the same DATA_DIR with a real service configured.
    const first = npmStart(sandboxEnv);
    try {
      await first.ready;
      expect(first.output()).toContain("Fundboard is ready");
      first.interrupt();
      await first.exited;
    } finally {
      first.kill();
    }
    const asLive = npmStart(live);
    try {
      const out = await ends(asLive);
      expect(out).toContain("was first used in sandbox mode");
      expect(out).toContain("fresh");
    } finally {
      asLive.kill();
    }

    // Live first (a fresh folder), then the same folder with SERVICE_BASE_URL lost in a deploy.
    const fresh = env({ AUTH_SECRET: "production-refusals-auth-secret-0123456789abcdef" });
    const liveRun = npmStart(fresh);
    try {
      await liveRun.ready;
      expect(liveRun.output()).toContain("Fundboard is ready");
      liveRun.interrupt();
      await liveRun.exited;
    } finally {
      liveRun.kill();
    }
    const { SERVICE_BASE_URL: _b, SERVICE_VERIFY_BASE_URL: _v, SERVICE_API_KEY: _k, ...lostVariable } = fresh;
    const asSandbox = npmStart(lostVariable);
    try {
      const out = await ends(asSandbox);
      expect(out).toContain("was first used with a live service");
      expect(await isListening(SANDBOX_PORT)).toBe(false);
    } finally {
      asSandbox.kill();
    }
  });
});
