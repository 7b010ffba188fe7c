// Real `next start` instances of the hardening build for the scale-out tests, each with its own DATA_DIR.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

import { requireBuild as requireNextBuild, startNextServer, type NextServer } from "@/tests/support/next-server";

export const DIST_DIR = process.env.SCALEOUT_DIST_DIR ?? ".next-hardening";

export type Instance = NextServer;

export function requireBuild(): void {
  requireNextBuild(DIST_DIR, "the hardening global setup must run first (npm run test:hardening).");
}

export function startInstance(port: number, env: Record<string, string>): Promise<Instance> {
  return startNextServer({ distDir: DIST_DIR, port, dataDir: mkdtempSync(path.join(tmpdir(), "fundboard-scale-")), env, readyTimeoutMs: 60_000 });
}
