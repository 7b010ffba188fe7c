import "server-only";

import { ConfigError, getConfig } from "@/lib/config";
import { bootstrapAdmins } from "@/lib/auth/bootstrap";
import { getDatabase } from "@/lib/db";
import type { Database, Db } from "@/lib/db/client";
import { pruneAttempts } from "@/lib/auth/throttle";
import { pruneDeliveryLog } from "@/lib/webhooks/log-retention";
import { advisoryLeadership } from "@/lib/db/leader";
import { startPgTransport } from "@/lib/live/pg-transport";
import { DatabaseLockedError } from "@/lib/db/lock";
import { claimDatabaseMode, DatabaseModeError, describeDatabase } from "@/lib/db/mode";
import { paymentDeps } from "@/lib/payments/app-deps";
import { startSweeper } from "@/lib/payments/sweeper";
import { startReconciler } from "@/lib/requests/reconciler";
import { requestDeps } from "@/lib/requests/app-deps";
import { getBackgroundService } from "@/lib/service/app-client";
import { safeErrorSummary } from "@/lib/log/safe-error";

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
  startRetention(db, config.deliveryLogDays);
}

const RETENTION_EVERY_MS = 60 * 60 * 1000;

/** Hourly: delivery-log rows past DELIVERY_LOG_DAYS and sign-in attempts that no longer count. */
function startRetention(db: Db, days: number): void {
  const run = () =>
    Promise.all([pruneDeliveryLog(db, days), pruneAttempts(db)])
      .then(([gone]) => gone > 0 && console.log(`[retention] ${gone} delivery-log rows older than ${days} days removed`))
      .catch((error) => console.error(`[retention] failed: ${safeErrorSummary(error)}`));
  setTimeout(run, 30_000).unref();
  setInterval(run, RETENTION_EVERY_MS).unref();
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
    // Before anything is written: a database never crosses between sandbox and live (DESIGN §2).
    await claimDatabaseMode(database.db, config.sandbox ? "sandbox" : "live", describeDatabase(config.database));
    await bootstrapAdmins(database.db, config, (line) => console.log(`[auth] ${line}`));
    startBackgroundWork(database);
  } catch (error) {
    if (error instanceof DatabaseLockedError || error instanceof DatabaseModeError) stop(error.message);
    const reason = safeErrorSummary(error);
    stop(`Fundboard cannot start: the database could not be opened (${reason}). Check DATABASE_URL or DATA_DIR.`);
  }
}
