// Real `next start` instances of the hardening build for the scale-out tests, each with its own DATA_DIR.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

import { requireBuild as requireNextBuild, startNextServer, type NextServer } from "@/tests/support/next-server";

import { DIST_DIR } from "@/tests/hardening/constants";

export type Instance = NextServer;

export function requireBuild(): void {
  requireNextBuild(DIST_DIR, "the hardening global setup must run first (npm run test:hardening).");
}

/** `stop` also deletes the instance's DATA_DIR (its secret file; the data itself is on Postgres). */
export async function startInstance(port: number, env: Record<string, string>): Promise<Instance> {
  const dataDir = mkdtempSync(path.join(tmpdir(), "fundboard-scale-"));
  const remove = () => rmSync(dataDir, { recursive: true, force: true });
  const instance = await startNextServer({ distDir: DIST_DIR, port, dataDir, env, readyTimeoutMs: 60_000 }).catch((error: unknown) => {
    remove();
    throw error;
  });
  const stop = instance.stop.bind(instance);
  return Object.assign(instance, { stop: (signal?: NodeJS.Signals) => stop(signal).then(remove) });
}
