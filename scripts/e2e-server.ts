// Playwright's web server: a fresh embedded database each run, or with E2E_POSTGRES=1 a fresh
// Postgres database on TEST_DATABASE_URL's server; then `npm start`.
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { rmSync } from "node:fs";
import path from "node:path";

import pg from "pg";

const root = path.resolve(import.meta.dirname, "..");
const env: NodeJS.ProcessEnv = { ...process.env };
// This run's folder (playwright.config.ts names it per run), emptied; never anything outside data/.
const dataDir = path.resolve(root, process.env.DATA_DIR ?? "data/e2e");
if (!dataDir.startsWith(path.join(root, "data") + path.sep)) throw new Error(`DATA_DIR ${dataDir} is not under data/`);
rmSync(dataDir, { recursive: true, force: true });

if (process.env.E2E_POSTGRES === "1") {
  const base = process.env.TEST_DATABASE_URL;
  if (!base) {
    console.error("E2E_POSTGRES=1 needs TEST_DATABASE_URL (a Postgres server where databases can be created).");
    process.exit(1);
  }
  const name = `fundboard_e2e_${randomBytes(5).toString("hex")}`;
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(base);
  url.pathname = `/${name}`;
  env.DATABASE_URL = url.toString();
  console.log(`[e2e] Postgres database ${name}`);
}

const child = spawn(path.join(root, "node_modules", ".bin", "tsx"), ["--conditions=react-server", "scripts/start.ts"], { cwd: root, env, stdio: "inherit" });
for (const signal of ["SIGINT", "SIGTERM"] as const) process.on(signal, () => child.kill(signal));
child.on("exit", (code) => process.exit(code ?? 1));
