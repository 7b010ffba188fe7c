// Builds the dashboard into .next-bench and the blank baseline app into bench/blank-app/.next, each only when
// its sources changed since the last bench build.
import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";

import { readBuildMarker, sourceHash } from "../scripts/build-if-needed";

/** The full run builds here; the smoke run (part of `npm test`) in its own folder, so the two never share one. */
export const BENCH_DIST_DIR = ".next-bench";
export const SMOKE_DIST_DIR = ".next-bench-smoke";
export const BLANK_APP_DIR = path.join("bench", "blank-app");
const MARKER = "fundboard-bench-build.json";

function nextBin(root: string): string {
  return path.join(root, "node_modules", ".bin", "next");
}

function runBuild(root: string, cwd: string, env: NodeJS.ProcessEnv): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(nextBin(root), ["build"], {
      cwd,
      env: { ...env, NEXT_TELEMETRY_DISABLED: "1", NODE_ENV: "production" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    const keep = (chunk: Buffer) => {
      output = (output + chunk.toString("utf8")).slice(-20_000);
    };
    child.stdout.on("data", keep);
    child.stderr.on("data", keep);
    child.once("error", reject);
    child.once("exit", (code) => (code === 0 ? resolve() : reject(new Error(`next build in ${cwd} failed (exit ${code}):\n${output.slice(-6_000)}`))));
  });
}

function upToDate(distDir: string, hash: string): boolean {
  if (!existsSync(path.join(distDir, "BUILD_ID"))) return false;
  try {
    return (JSON.parse(readFileSync(path.join(distDir, MARKER), "utf8")) as { hash?: string }).hash === hash;
  } catch {
    return false;
  }
}

/** `next build` rewrites these for its dist folder; the committed versions stay as they were. */
async function keepingFiles(files: string[], work: () => Promise<void>): Promise<void> {
  const before = new Map(files.map((f) => [f, existsSync(f) ? readFileSync(f, "utf8") : null]));
  try {
    await work();
  } finally {
    for (const [file, text] of before) if (text !== null && readFileSync(file, "utf8") !== text) writeFileSync(file, text);
  }
}

/**
 * The smoke run (after `npm run build` in `npm test` and CI) uses `.next` when it holds a build of exactly these
 * sources (scripts/build-if-needed.ts's marker), instead of building the same sources again.
 */
export function sharedBuild(root: string): string | null {
  return readBuildMarker(path.join(root, ".next"))?.hash === sourceHash(root) ? ".next" : null;
}

export async function buildDashboard(root: string, distName: string, log: (line: string) => void): Promise<void> {
  const distDir = path.join(root, distName);
  const hash = sourceHash(root);
  if (upToDate(distDir, hash)) {
    log(`dashboard: using the existing ${distName} build (sources unchanged)`);
    return;
  }
  log(`dashboard: building into ${distName}…`);
  const started = Date.now();
  const { DATABASE_URL: _db, NEXT_OUTPUT: _out, ...env } = process.env;
  await keepingFiles([path.join(root, "tsconfig.json"), path.join(root, "next-env.d.ts")], () => runBuild(root, root, { ...env, NEXT_DIST_DIR: distName }));
  writeFileSync(path.join(distDir, MARKER), JSON.stringify({ hash, builtAt: new Date().toISOString() }));
  log(`dashboard: built in ${Math.round((Date.now() - started) / 1000)} s`);
}

function blankHash(root: string): string {
  const dir = path.join(root, BLANK_APP_DIR);
  const hash = createHash("sha256");
  const walk = (d: string) => {
    for (const entry of readdirSync(d).sort()) {
      if (entry === ".next" || entry === "next-env.d.ts") continue;
      const full = path.join(d, entry);
      if (statSync(full).isDirectory()) walk(full);
      else hash.update(path.relative(dir, full)).update("\0").update(readFileSync(full));
    }
  };
  walk(dir);
  hash.update(readFileSync(path.join(root, "node_modules", "next", "package.json")));
  return hash.digest("hex");
}

export async function buildBlank(root: string, log: (line: string) => void): Promise<void> {
  const dir = path.join(root, BLANK_APP_DIR);
  const hash = blankHash(root);
  if (upToDate(path.join(dir, ".next"), hash)) {
    log("blank app: using the existing build");
    return;
  }
  log("blank app: building…");
  const started = Date.now();
  const { NEXT_DIST_DIR: _dist, NEXT_OUTPUT: _out, ...env } = process.env;
  await keepingFiles([path.join(dir, "tsconfig.json")], () => runBuild(root, dir, env));
  writeFileSync(path.join(dir, ".next", MARKER), JSON.stringify({ hash, builtAt: new Date().toISOString() }));
  log(`blank app: built in ${Math.round((Date.now() - started) / 1000)} s`);
}
