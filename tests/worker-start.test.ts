// `npm run worker` (scripts/worker.ts; docs/decisions.md, "Workers apart (issue 38)"): refused with a message a person
// can act on where it cannot run; on Postgres it migrates the database, works every queue and keeps the clocks, writes
// its health line, and stops gracefully on SIGTERM with exit code 0.
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

import pg from "pg";
import { describe, expect, it } from "vitest";

import { createTempPostgres } from "@/tests/support/db-targets";
import { JOBS } from "@/lib/server/workers";

const root = path.resolve(import.meta.dirname, "..");
const tsx = path.join(root, "node_modules", ".bin", "tsx");
const ARGS = ["--conditions=react-server", "scripts/worker.ts"];
const bare = (env: Record<string, string>): NodeJS.ProcessEnv => ({
  PATH: process.env.PATH ?? "",
  HOME: process.env.HOME ?? "",
  NODE_ENV: "production",
  ...env,
});

function worker(env: Record<string, string>) {
  return spawnSync(tsx, ARGS, { cwd: root, env: bare(env), encoding: "utf8", timeout: 30_000 });
}

describe("npm run worker where it cannot run", () => {
  it("refuses the embedded database (no DATABASE_URL), naming DATABASE_URL, before writing anything to DATA_DIR", () => {
    const parent = mkdtempSync(path.join(tmpdir(), "fundboard-worker-refusal-"));
    const dataDir = path.join(parent, "data");
    try {
      const result = worker({ DATA_DIR: dataDir });
      expect(result.status).toBe(1);
      expect(result.stderr).toContain("Fundboard's worker cannot start: `npm run worker` needs DATABASE_URL.");
      expect(result.stderr).toContain("opens in one process only");
      expect(result.stderr).not.toMatch(/\n\s+at .+:\d+:\d+/);
      expect(result.stdout).not.toContain("[worker] ready");
      expect(existsSync(dataDir)).toBe(false);
    } finally {
      rmSync(parent, { recursive: true, force: true });
    }
  });

  it("stops on a malformed WORKERS, naming the variable", () => {
    const result = worker({ DATABASE_URL: "postgres://u:p@127.0.0.1:1/none", WORKERS: "2" });
    expect(result.status).toBe(1);
    expect(result.stderr).toContain("Fundboard's worker cannot start: configuration problem");
    expect(result.stderr).toContain('WORKERS must be "1"');
    expect(result.stderr).not.toMatch(/\n\s+at .+:\d+:\d+/);
  });
});

const base = process.env.TEST_DATABASE_URL;

describe.runIf(base)("npm run worker on Postgres", () => {
  it("migrates a fresh database, works every queue with its clocks, says so in one line, and exits 0 on SIGTERM", async () => {
    const db = await createTempPostgres(base ?? "");
    const dataDir = mkdtempSync(path.join(tmpdir(), "fundboard-worker-"));
    const child = spawn(tsx, ARGS, { cwd: root, env: bare({ DATABASE_URL: db.url, DATA_DIR: dataDir, WORKERS: "0" }), stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    const ready = new Promise<boolean>((resolve) => {
      const keep = (chunk: Buffer) => {
        output += chunk.toString("utf8");
        if (output.includes("[worker] ready")) resolve(true);
      };
      child.stdout.on("data", keep);
      child.stderr.on("data", keep);
      child.once("exit", () => resolve(false));
    });
    const exit = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
    const client = new pg.Client({ connectionString: db.url });
    try {
      expect(await ready, output).toBe(true);
      expect(output).toMatch(new RegExp(`\\[worker\\] ready: ${JOBS.length} queues on`));
      expect(output).toMatch(/\[worker\] ready: \d+ queues on the Postgres database fundboard_test_\w+ on 127\.0\.0\.1 \(DATABASE_URL\) as \S+:\d+, in \d+ ms/);
      await client.connect();
      // Migrated from nothing, as a dashboard's first start does; every clock kept (WORKERS=0 means nothing to a worker).
      expect((await client.query<{ n: number }>("SELECT count(*)::int AS n FROM drizzle.__drizzle_migrations")).rows[0]?.n).toBeGreaterThan(0);
      expect((await client.query<{ n: number }>("SELECT count(*)::int AS n FROM pgboss.schedule")).rows[0]?.n).toBe(JOBS.filter((j) => j.schedule).length);
      child.kill("SIGTERM");
      expect(await exit, output).toBe(0);
      expect(output).toContain("[worker] SIGTERM: finishing running jobs");
      expect(output).toContain("[worker] stopped: jobs finished, database closed");
    } finally {
      child.kill("SIGKILL");
      await client.end().catch(() => undefined);
      await db.drop();
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 60_000);
});
