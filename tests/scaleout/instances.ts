// Real `next start` instances of the hardening build for the scale-out tests, each with its own DATA_DIR, and
// jobs-only workers (`npm run worker`'s command) beside them.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

import { requireBuild as requireNextBuild, startNextServer, type NextServer } from "@/tests/support/next-server";
import { bin, ROOT } from "@/tests/support/paths";
import { bareEnv, launch, type Managed } from "@/tests/support/processes";

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

/** The worker's health line once its queues are worked (lib/server/worker.ts). */
const READY = /\[worker\] ready: .* as (\S+),/;

export interface Worker extends Managed {
  /** Which instance it is as its jobs record it (lib/jobs/engine.ts WORKED_BY), from its ready line. */
  workedBy: string;
}

/**
 * `npm run worker`'s command (tsx scripts/worker.ts; without npm, whose own handling of a signal would hide the
 * worker's exit code), waited for on its ready line. `stop` also deletes its DATA_DIR.
 */
export async function startWorker(env: Record<string, string>, readyTimeoutMs = 60_000): Promise<Worker> {
  const dataDir = mkdtempSync(path.join(tmpdir(), "fundboard-worker-"));
  const remove = () => rmSync(dataDir, { recursive: true, force: true });
  const worker = launch("worker", bin("tsx"), ["--conditions=react-server", "scripts/worker.ts"], { cwd: ROOT, env: bareEnv({ DATA_DIR: dataDir, ...env }) });
  let timer: NodeJS.Timeout | undefined;
  const ready = await Promise.race([worker.untilOutput(READY), new Promise<false>((r) => (timer = setTimeout(() => r(false), readyTimeoutMs)))]);
  clearTimeout(timer);
  const workedBy = READY.exec(worker.output())?.[1];
  if (!ready || !workedBy) {
    await worker.stop("SIGKILL");
    remove();
    throw new Error(`the worker did not become ready within ${readyTimeoutMs / 1000} s:\n${worker.tail()}`);
  }
  const stop = worker.stop.bind(worker);
  return Object.assign(worker, { workedBy, stop: (signal?: NodeJS.Signals) => stop(signal).then(remove) });
}
