import "server-only";

import { ConfigError, getConfig } from "@/lib/config";
import { bootstrapAdmins } from "@/lib/auth/bootstrap";
import { getDatabase } from "@/lib/db";
import type { Database } from "@/lib/db/client";
import { advisoryLeadership } from "@/lib/db/leader";
import { startPgTransport } from "@/lib/live/pg-transport";
import { DatabaseLockedError } from "@/lib/db/lock";
import { paymentDeps } from "@/lib/payments/app-deps";
import { startSweeper } from "@/lib/payments/sweeper";
import { startReconciler } from "@/lib/requests/reconciler";
import { requestDeps } from "@/lib/requests/app-deps";
import { getBackgroundService } from "@/lib/service/app-client";

const KEY = Symbol.for("fundboard.background");
type Holder = { [KEY]?: boolean };

/** Once per process: the live transport (Postgres), the reconciler and the payment sweeper. */
function startBackgroundWork(database: Database): void {
  const g = globalThis as Holder;
  if (g[KEY]) return;
  g[KEY] = true;
  const { db } = database;
  const config = getConfig();
  let isLeader: (() => Promise<boolean>) | undefined;
  if (database.kind === "postgres" && database.pool && config.database.kind === "postgres") {
    startPgTransport(database.pool, config.database.url);
    isLeader = advisoryLeadership(config.database.url).isLeader;
  }
  startReconciler({ ...requestDeps(db), service: getBackgroundService() }, { isLeader, log: (line) => console.log(`[reconciler] ${line}`) });
  startSweeper(paymentDeps(db, [2_000, 6_000]));
}

/** Fails fast with a message a person can act on instead of a stack trace. */
function stop(message: string): never {
  console.error(`\n${message}\n`);
  process.exit(1);
}

export async function startServer(): Promise<void> {
  let config;
  try {
    config = getConfig();
  } catch (error) {
    if (error instanceof ConfigError) stop(error.message);
    throw error;
  }
  for (const warning of config.warnings) console.warn(`[config] ${warning}`);

  const started = Date.now();
  try {
    const database = await getDatabase();
    console.log(`[db] ${database.kind === "pglite" ? `embedded database in ${config.dataDir}` : "Postgres"} ready in ${Date.now() - started} ms`);
    await bootstrapAdmins(database.db, config, (line) => console.log(`[auth] ${line}`));
    startBackgroundWork(database);
  } catch (error) {
    if (error instanceof DatabaseLockedError) stop(error.message);
    const reason = error instanceof Error ? error.message : String(error);
    stop(`Fundboard cannot start: the database could not be opened (${reason}). Check DATABASE_URL or DATA_DIR.`);
  }
}
