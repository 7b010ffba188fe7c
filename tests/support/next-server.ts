// A real `next start` of a finished build (the hardening build, say), waited for on GET /api/health.
import { existsSync } from "node:fs";
import path from "node:path";

import { nextStartCommand } from "@/scripts/next-start";

import { ROOT } from "./paths";
import { assertPortsFree } from "./ports";
import { bareEnv, launch, waitForHttp, type Managed } from "./processes";

export interface NextServer extends Managed {
  port: number;
  /** http://localhost:PORT, also its APP_URL. */
  url: string;
  /** Milliseconds from spawn to the first healthy answer. */
  readyMs: number;
}

export interface NextServerOptions {
  /** The build folder (NEXT_DIST_DIR), relative to the repository root. */
  distDir: string;
  port: number;
  /** DATA_DIR: where the embedded database lives (ignored by the app when DATABASE_URL is set). */
  dataDir: string;
  /** On top of a bare production environment. */
  env: Record<string, string>;
  /** Default 90 s. */
  readyTimeoutMs?: number;
}

/** Fails unless `distDir` holds a finished build. */
export function requireBuild(distDir: string, hint: string): void {
  if (!existsSync(path.join(ROOT, distDir, "BUILD_ID"))) throw new Error(`No build in ${distDir}: ${hint}`);
}

/** Starts `next start` on a free port; once it answers /api/health, or it is killed and this fails with its output. */
export async function startNextServer(opts: NextServerOptions): Promise<NextServer> {
  await assertPortsFree(opts.port);
  const started = Date.now();
  const url = `http://localhost:${opts.port}`;
  const next = nextStartCommand(ROOT, opts.port);
  const env = bareEnv({ NEXT_DIST_DIR: opts.distDir, PORT: String(opts.port), APP_URL: url, DATA_DIR: opts.dataDir, ...opts.env });
  const managed = launch(`next start :${opts.port}`, next.command, next.args, { cwd: ROOT, env });
  try {
    await waitForHttp(`${url}/api/health`, managed, opts.readyTimeoutMs ?? 90_000, { everyMs: 150, requestTimeoutMs: 5_000 });
  } catch (error) {
    await managed.stop("SIGKILL");
    throw error;
  }
  return Object.assign(managed, { port: opts.port, url, readyMs: Date.now() - started });
}
