// The `npm run sandbox` entry point: environment parsing, start-up output and clean shutdown.
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { CliConfigError, describeKey, readCliConfig } from "./cli-config";
import { DEV_API_KEY } from "@/lib/config/dev-key";

const repoRoot = fileURLToPath(new URL("..", import.meta.url));

describe("readCliConfig", () => {
  it("defaults everything", () => {
    expect(readCliConfig({})).toEqual({ port: 4010, apiKey: DEV_API_KEY, amountUnit: "major", webhookUrl: undefined, logCalls: false });
  });

  it("reads and trims every variable", () => {
    expect(
      readCliConfig({
        SANDBOX_PORT: " 5000 ",
        SERVICE_API_KEY: "  sk_live_like_key_123456  ",
        SERVICE_AMOUNT_UNIT: "minor",
        SANDBOX_WEBHOOK_URL: "http://localhost:3000/api/webhooks/service",
        SANDBOX_LOG_CALLS: "1",
      }),
    ).toEqual({ port: 5000, apiKey: "sk_live_like_key_123456", amountUnit: "minor", webhookUrl: "http://localhost:3000/api/webhooks/service", logCalls: true });
  });

  it.each([
    [{ SANDBOX_PORT: "abc" }, "SANDBOX_PORT"],
    [{ SANDBOX_PORT: "65534" }, "SANDBOX_PORT"],
    [{ SANDBOX_PORT: "-1" }, "SANDBOX_PORT"],
    [{ SERVICE_API_KEY: "has space" }, "SERVICE_API_KEY"],
    [{ SERVICE_AMOUNT_UNIT: "cents" }, "SERVICE_AMOUNT_UNIT"],
    [{ SANDBOX_WEBHOOK_URL: "ftp://example.com/x" }, "SANDBOX_WEBHOOK_URL"],
    [{ SANDBOX_LOG_CALLS: "yes" }, "SANDBOX_LOG_CALLS"],
  ])("rejects %j naming %s", (env, name) => {
    expect(() => readCliConfig(env)).toThrow(CliConfigError);
    expect(() => readCliConfig(env)).toThrow(name);
  });

  it("shows the development key in full but only a hint of any other", () => {
    expect(describeKey(DEV_API_KEY)).toContain(DEV_API_KEY);
    expect(describeKey("sk_real_secret_value_9999")).not.toContain("secret");
  });
});

function runCli(env: Record<string, string>) {
  const child = spawn(process.execPath, ["--import", "tsx", "sandbox/main.ts"], {
    cwd: repoRoot,
    env: { ...process.env, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString("utf8")));
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")));
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  return { child, exited, output: () => ({ stdout, stderr }) };
}

describe("sandbox CLI", () => {
  it.each(["SIGTERM", "SIGINT"] as const)("prints its URLs and key, serves, and exits 0 on %s", async (signal) => {
    const cli = runCli({ SANDBOX_PORT: "0", SERVICE_API_KEY: "", SERVICE_AMOUNT_UNIT: "", SANDBOX_WEBHOOK_URL: "" });
    const deadline = Date.now() + 20_000;
    while (!cli.output().stdout.includes("Press Ctrl+C")) {
      if (Date.now() > deadline) throw new Error(`CLI did not start: ${JSON.stringify(cli.output())}`);
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    const { stdout } = cli.output();
    const apiUrl = /API:\s+(http:\/\/127\.0\.0\.1:\d+)/.exec(stdout)?.[1];
    expect(apiUrl).toBeDefined();
    expect(stdout).toMatch(/Verify:\s+http:\/\/127\.0\.0\.1:\d+/);
    expect(stdout).toMatch(/Consumer app:\s+http:\/\/127\.0\.0\.1:\d+\//);
    expect(stdout).toMatch(/Mail sink:\s+smtp:\/\/127\.0\.0\.1:\d+ \(mailbox at http:\/\/127\.0\.0\.1:\d+\/mail\)/);
    expect(stdout).toContain(DEV_API_KEY);
    const res = await fetch(`${apiUrl ?? ""}/api/v1/business/balance`, { headers: { authorization: `Bearer ${DEV_API_KEY}` } });
    expect(res.status).toBe(200);
    cli.child.kill(signal);
    expect(await cli.exited).toBe(0);
    expect(cli.output().stdout).toContain(`${signal} received, stopping`);
  });

  it("exits 1 with one line naming a bad variable", async () => {
    const cli = runCli({ SERVICE_AMOUNT_UNIT: "cents" });
    expect(await cli.exited).toBe(1);
    const lines = cli.output().stderr.trim().split("\n");
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/SERVICE_AMOUNT_UNIT/);
  });
});

describe("the sandbox's call log", () => {
  it("is off unless asked for: a call logs a line only with logCalls", async () => {
    const { startSandbox } = await import("./server");
    for (const logCalls of [false, true]) {
      const lines: string[] = [];
      const sandbox = await startSandbox({ port: 0, log: (line) => lines.push(line), logCalls });
      try {
        const res = await fetch(`${sandbox.apiUrl}/sandbox/stats`);
        expect(res.status).toBe(200);
        await res.text();
        const calls = lines.filter((l) => l.includes("GET /sandbox/stats →"));
        // The line is written when the answer finishes: it is there by the time the body has been read.
        expect(calls).toHaveLength(logCalls ? 1 : 0);
      } finally {
        await sandbox.close();
      }
    }
  });
});
