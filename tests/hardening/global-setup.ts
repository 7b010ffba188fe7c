// Once for the whole hardening run: builds the dashboard into its own folder (never racing another build),
// with the distinctive key in the environment so the key-leak test sees what a real build would ship; and,
// meanwhile, makes one migrated embedded database that each test copies into its fresh DATA_DIR (a first
// PGlite start spends most of its time in initdb and migrations, which would otherwise repeat per server).
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

import type { TestProject } from "vitest/node";

import { openDatabase } from "@/lib/db/client";
import { bin, ROOT } from "@/tests/support/paths";

import { DIST_DIR, HARDENING_KEY } from "./constants";

/** `next build` may add its dist folder's types to tsconfig.json; the committed file must stay as it is. */
const KEPT_FILES = ["tsconfig.json"].map((f) => path.join(ROOT, f));

function runBuild(): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(bin("next"), ["build"], {
      cwd: ROOT,
      env: {
        PATH: process.env.PATH ?? "",
        HOME: process.env.HOME ?? "",
        NODE_ENV: "production",
        NEXT_TELEMETRY_DISABLED: "1",
        NEXT_DIST_DIR: DIST_DIR,
        SERVICE_API_KEY: HARDENING_KEY,
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    const keep = (chunk: Buffer) => {
      output = (output + chunk.toString("utf8")).slice(-20_000);
    };
    child.stdout.on("data", keep);
    child.stderr.on("data", keep);
    child.once("error", reject);
    child.once("exit", (code, signal) =>
      code === 0 ? resolve() : reject(new Error(`next build into ${DIST_DIR} failed (${signal ?? `exit ${code}`}):\n${output.slice(-6_000)}`)),
    );
  });
}

async function build(): Promise<void> {
  const started = Date.now();
  // For working on the suite itself: HARDENING_REUSE_BUILD=1 keeps an existing build (ignored in CI).
  if (process.env.HARDENING_REUSE_BUILD === "1" && !process.env.CI && existsSync(path.join(ROOT, DIST_DIR, "BUILD_ID"))) {
    console.log(`[hardening] HARDENING_REUSE_BUILD=1: reusing the existing ${DIST_DIR} build`);
    return;
  }
  const before = new Map(KEPT_FILES.map((f) => [f, existsSync(f) ? readFileSync(f, "utf8") : null]));
  // A fresh folder (bar the compiler cache): a stale file from an older build must not hide (or fake) a leak.
  const dist = path.join(ROOT, DIST_DIR);
  if (existsSync(dist)) for (const entry of readdirSync(dist)) if (entry !== "cache") rmSync(path.join(dist, entry), { recursive: true, force: true });
  try {
    await runBuild();
  } finally {
    for (const [file, text] of before) if (text !== null && readFileSync(file, "utf8") !== text) writeFileSync(file, text);
  }
  console.log(`[hardening] built ${DIST_DIR} in ${Math.round((Date.now() - started) / 1000)} s`);
}

async function migratedTemplate(dir: string): Promise<void> {
  const started = Date.now();
  const database = await openDatabase({ kind: "pglite", dataDir: dir });
  await database.close();
  console.log(`[hardening] migrated embedded database template in ${Math.round((Date.now() - started) / 1000)} s`);
}

export default async function setup(project: TestProject): Promise<() => void> {
  const template = mkdtempSync(path.join(tmpdir(), "fundboard-hardening-template-"));
  const remove = () => rmSync(template, { recursive: true, force: true });
  try {
    await Promise.all([build(), migratedTemplate(template)]);
  } catch (error) {
    remove();
    throw error;
  }
  project.provide("pgliteTemplate", template);
  return remove;
}
