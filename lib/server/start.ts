import "server-only";

import { ConfigError, getConfig } from "@/lib/config";
import { bootstrapAdmins } from "@/lib/auth/bootstrap";
import { getDatabase } from "@/lib/db";
import type { Database } from "@/lib/db/client";
import { registerJobs, startJobEngine, WORKED_BY } from "@/lib/jobs/engine";
import { startLiveListener } from "@/lib/live/listen";
import { DatabaseLockedError } from "@/lib/db/lock";
import { claimDatabaseMode, DatabaseModeError, describeDatabase } from "@/lib/db/mode";
import { safeErrorSummary } from "@/lib/log/safe-error";
import { markAbandonedUnknown } from "@/lib/requests/status";

import { backgroundPlan } from "./roles";
import { installShutdown, shutdownSignal } from "./shutdown";
import { JOBS } from "./workers";
import { peekProcessSingleton, setProcessSingleton } from "@/lib/util/process-singleton";

/**
 * Once per process: the live listener and the job engine, with its workers and clocks unless this is a
 * web-only instance (WORKERS=0), whose engine only queues jobs for `npm run worker` (lib/server/roles.ts).
 */
async function startBackgroundWork(database: Database): Promise<void> {
  if (peekProcessSingleton("background")) return;
  setProcessSingleton("background", true);
  const config = getConfig();
  const plan = backgroundPlan("web", config);
  const postgresUrl = config.database.kind === "postgres" ? config.database.url : null;
  if (plan.liveListener) await startLiveListener(database, postgresUrl).ready;
  const boss = await startJobEngine(database, postgresUrl, JOBS, { work: plan.jobs });
  if (plan.jobs) {
    await registerJobs(boss, JOBS, { db: database.db, log: (line) => console.log(line), signal: shutdownSignal });
    console.log(`[jobs] working ${JOBS.length} queues on this instance as ${WORKED_BY}`);
  } else {
    console.log(`[jobs] web only (WORKERS=0): jobs are queued here and worked by \`npm run worker\``);
  }
  installShutdown(database, (line) => console.log(line));
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
    // Before anything is written: a database never crosses between sandbox and live (the README's Configuration).
    await claimDatabaseMode(database.db, config.sandbox ? "sandbox" : "live", describeDatabase(config.database));
    await bootstrapAdmins(database.db, config, (line) => console.log(`[auth] ${line}`));
    if (database.kind === "pglite") {
      // Only one process opens an embedded database: a request still `sending` was left by one that died
      // mid-call, so its outcome is unknown now rather than in the sweep's two minutes.
      const abandoned = await markAbandonedUnknown(database.db, new Date());
      if (abandoned.length > 0)
        console.log(`[requests] ${abandoned.length} requests left sending by a stopped process marked unknown (not sent again; settled by their payment)`);
    }
    await startBackgroundWork(database);
  } catch (error) {
    if (error instanceof DatabaseLockedError || error instanceof DatabaseModeError) stop(error.message);
    const reason = safeErrorSummary(error);
    stop(`Fundboard cannot start: the database could not be opened (${reason}). Check DATABASE_URL or DATA_DIR.`);
  }
}
