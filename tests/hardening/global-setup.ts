// Once for the whole hardening run: builds the dashboard into its own folder (never racing another build),
// with the distinctive key in the environment so the key-leak test sees what a real build would ship, or checks
// that the build HARDENING_DIST_DIR names was made so from these sources; and, meanwhile, makes one migrated
// embedded database that each test copies into its fresh DATA_DIR (tests/support/db-template.ts).
import { spawn } from "node:child_process";
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";

import type { TestProject } from "vitest/node";

import { readBuildMarker, sourceHash } from "@/scripts/build-if-needed";
import { makePgliteTemplate } from "@/tests/support/db-template";
import { bin, ROOT } from "@/tests/support/paths";

import { givenBuildProblem } from "./build-check";
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

/** A build made elsewhere (CI's `npm run build`) stands in for ours only if it saw the hardening key and these sources. */
function checkGivenBuild(): void {
  const problem = givenBuildProblem(readBuildMarker(path.join(ROOT, DIST_DIR)), sourceHash(ROOT), HARDENING_KEY);
  if (problem)
    throw new Error(`HARDENING_DIST_DIR=${DIST_DIR} ${problem}: build it with SERVICE_API_KEY=${HARDENING_KEY} npm run build, or unset HARDENING_DIST_DIR`);
  console.log(`[hardening] using ${DIST_DIR}, built from these sources with the hardening key`);
}

async function build(): Promise<void> {
  if (process.env.HARDENING_DIST_DIR) return checkGivenBuild();
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

async function migratedTemplate(): Promise<{ dir: string; remove(): void }> {
  const started = Date.now();
  const template = await makePgliteTemplate("hardening");
  console.log(`[hardening] migrated embedded database template in ${Math.round((Date.now() - started) / 1000)} s`);
  return template;
}

export default async function setup(project: TestProject): Promise<() => void> {
  const [built, template] = await Promise.allSettled([build(), migratedTemplate()]);
  if (template.status === "rejected") throw template.reason;
  if (built.status === "rejected") {
    template.value.remove();
    throw built.reason;
  }
  project.provide("pgliteTemplate", template.value.dir);
  project.provide("postgresTemplate", "");
  return template.value.remove;
}
