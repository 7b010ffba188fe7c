import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

import { afterAll, describe, expect, it } from "vitest";

import { openDatabase } from "@/lib/db/client";
import { verifyPassword } from "@/lib/auth/password";
import { findStaffByEmail } from "@/lib/auth/accounts";

const root = path.resolve(import.meta.dirname, "..");
const dataDir = mkdtempSync(path.join(tmpdir(), "fundboard-usercreate-"));

function userCreate(args: string[], env: Record<string, string> = {}) {
  return spawnSync(path.join(root, "node_modules", ".bin", "tsx"), ["--conditions=react-server", "scripts/user-create.ts", ...args], {
    cwd: root,
    env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", NODE_ENV: "test", DATA_DIR: dataDir, ...env },
    encoding: "utf8",
    timeout: 60_000,
  });
}

afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

describe("npm run user:create", () => {
  // Two runs of the script, each starting and migrating a new embedded database, then a third open: 33 s on a busy
  // machine (beside another unit run), over the suite's 30 s default.
  it("adds a staff account with a hashed password, and refuses the same e-mail twice", async () => {
    const first = userCreate(["--email", "Op@Example.com", "--role", "operator", "--name", "Op Person", "--password", "operator-password"]);
    expect(first.stderr).toBe("");
    expect(first.status).toBe(0);
    expect(first.stdout).toContain("Created operator op@example.com");

    const again = userCreate(["--email", "op@example.com", "--role", "viewer", "--password", "other-password"]);
    expect(again.status).toBe(1);
    expect(again.stderr).toContain("already exists");

    const database = await openDatabase({ kind: "pglite", dataDir });
    try {
      const row = await findStaffByEmail(database.db, "op@example.com");
      expect(row?.role).toBe("operator");
      expect(row?.passwordHash).toMatch(/^\$argon2id\$/);
      expect(await verifyPassword(row?.passwordHash ?? null, "operator-password")).toBe(true);
    } finally {
      await database.close();
    }
  }, 120_000);

  it("generates and prints a password when none is given", () => {
    const result = userCreate(["--email", "viewer@example.com", "--role", "viewer"]);
    expect(result.status).toBe(0);
    expect(result.stdout).toMatch(/Password: \S{16}/);
  });

  it("explains bad arguments", () => {
    const result = userCreate(["--email", "nope", "--role", "boss"]);
    expect(result.status).toBe(1);
    expect(result.stderr).toContain("--email");
    expect(result.stderr).toContain("--role");
    expect(result.stderr).toContain("Usage:");
  });

  it("refuses with a clear message while a running dashboard holds the embedded database", async () => {
    const holder = spawn("sleep", ["60"]);
    try {
      writeFileSync(path.join(dataDir, "fundboard.lock"), JSON.stringify({ pid: holder.pid }));
      const result = userCreate(["--email", "late@example.com", "--role", "viewer", "--password", "late-password"]);
      expect(result.status).toBe(1);
      expect(result.stderr).toContain("The dashboard is running");
      expect(result.stderr).toContain("Staff page");
    } finally {
      holder.kill();
      rmSync(path.join(dataDir, "fundboard.lock"), { force: true });
    }
  });
});
