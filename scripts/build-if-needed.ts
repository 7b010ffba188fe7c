import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";

// Everything `next build` reads; tests, the sandbox and scripts are not part of the bundle.
const INPUT_DIRS = ["app", "components", "lib", "public"];
const INPUT_FILES = [
  "next.config.js",
  "package-lock.json",
  "tailwind.config.ts",
  "postcss.config.mjs",
  "tsconfig.json",
  "instrumentation.ts",
  "proxy.ts",
  "auth.ts",
];

function walk(dir: string, out: string[]): void {
  if (!existsSync(dir)) return;
  for (const entry of readdirSync(dir)) {
    const full = path.join(dir, entry);
    if (statSync(full).isDirectory()) walk(full, out);
    else if (!/\.test\.tsx?$/.test(entry)) out.push(full);
  }
}

export function sourceHash(root: string): string {
  const files: string[] = [];
  for (const dir of INPUT_DIRS) walk(path.join(root, dir), files);
  for (const file of INPUT_FILES) if (existsSync(path.join(root, file))) files.push(path.join(root, file));
  const hash = createHash("sha256");
  for (const file of files.sort()) {
    hash.update(path.relative(root, file));
    hash.update("\0");
    hash.update(readFileSync(file));
  }
  return hash.digest("hex");
}

/** Runs `next build` unless `.next` already holds a build of exactly these sources. */
export function buildIfNeeded(root: string, log: (line: string) => void, opts: { force?: boolean } = {}): void {
  const marker = path.join(root, ".next", "fundboard-build.json");
  const hash = sourceHash(root);
  // An unreadable marker means rebuild.
  if (!opts.force && readBuildMarker(path.join(root, ".next"))?.hash === hash) {
    log("Using the existing build (sources unchanged).");
    return;
  }
  log("Building the dashboard (first start or sources changed)…");
  const result = spawnSync(path.join(root, "node_modules", ".bin", "next"), ["build"], {
    cwd: root,
    stdio: "inherit",
    env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1", NODE_ENV: "production" },
  });
  if (result.status !== 0) throw new Error("`next build` failed; see its output above.");
  writeFileSync(marker, JSON.stringify({ hash, builtAt: new Date().toISOString(), serviceKeySha256: keyFingerprint(process.env.SERVICE_API_KEY) }));
}

/** The SHA-256 of the service key in the build's environment (null without one): which key a build saw, never the key. */
export function keyFingerprint(key: string | undefined): string | null {
  return key ? createHash("sha256").update(key).digest("hex") : null;
}

/** What `buildIfNeeded` recorded in a build folder, or null when it holds no finished build of ours. */
export function readBuildMarker(distDir: string): { hash: string; serviceKeySha256: string | null } | null {
  const marker = path.join(distDir, "fundboard-build.json");
  if (!existsSync(path.join(distDir, "BUILD_ID")) || !existsSync(marker)) return null;
  try {
    const parsed = JSON.parse(readFileSync(marker, "utf8")) as { hash?: unknown; serviceKeySha256?: unknown };
    if (typeof parsed.hash !== "string") return null;
    return { hash: parsed.hash, serviceKeySha256: typeof parsed.serviceKeySha256 === "string" ? parsed.serviceKeySha256 : null };
  } catch {
    return null;
  }
}
