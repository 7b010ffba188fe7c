import "server-only";

import { ConfigError, getConfig, parseConfig } from "@/lib/config";
import { getDatabase } from "@/lib/db";
import type { Database } from "@/lib/db/client";
import { claimDatabaseMode, DatabaseModeError, describeDatabase } from "@/lib/db/mode";
import { jobEngine, registerJobs, startJobEngine, WORKED_BY } from "@/lib/jobs/engine";
import { safeErrorSummary } from "@/lib/log/safe-error";

import { backgroundPlan, workerRefusal } from "./roles";
import { installShutdown, shutdownSignal } from "./shutdown";
import { JOBS } from "./workers";

// `npm run worker` (scripts/worker.ts): a jobs-only process beside web-only instances (WORKERS=0) on one Postgres
// (docs/architecture.md, "Jobs"; docs/decisions.md, "Workers apart (issue 38)"). Same configuration as the
// dashboard; it migrates the database as a dashboard's first start does, works every queue, keeps the clocks,
// writes its own health line, and stops gracefully on SIGTERM or SIGINT (lib/server/shutdown.ts).

/** How often the worker checks the database and its queues; a failure is logged at once, a healthy line every HEALTHY_EVERY checks. */
const HEALTH_CHECK_MS = 60_000;
const HEALTHY_EVERY = 10;

const log = (line: string) => console.log(line);

function stop(message: string): never {
  console.error(`\n${message}\n`);
  process.exit(1);
}

/** Jobs waiting (created or retrying) across every queue, and how long the database took to answer. */
async function health(database: Database): Promise<{ waiting: number; ms: number }> {
  const started = Date.now();
  await database.pool?.query("SELECT 1");
  const ms = Date.now() - started;
  const boss = jobEngine();
  let waiting = 0;
  for (const job of JOBS) waiting += (await boss?.getQueueSize(job.queue, { before: "active" })) ?? 0;
  return { waiting, ms };
}

function watchHealth(database: Database): void {
  let checks = 0;
  let healthy = true;
  const timer = setInterval(() => {
    checks += 1;
    health(database).then(
      ({ waiting, ms }) => {
        if (!healthy || checks % HEALTHY_EVERY === 0) log(`[worker] healthy: ${JOBS.length} queues, ${waiting} jobs waiting, database answered in ${ms} ms`);
        healthy = true;
      },
      (error: unknown) => {
        healthy = false;
        console.error(`[worker] unhealthy: the database did not answer (${safeErrorSummary(error)}); jobs wait until it does`);
      },
    );
  }, HEALTH_CHECK_MS);
  timer.unref();
  shutdownSignal.addEventListener("abort", () => clearInterval(timer), { once: true });
}

export async function startWorker(): Promise<void> {
  const started = Date.now();
  let config;
  try {
    // Refused before getConfig, which would write a sandbox auth secret into DATA_DIR.
    const refusal = workerRefusal(parseConfig(process.env));
    if (refusal) stop(refusal);
    config = getConfig();
  } catch (error) {
    if (error instanceof ConfigError) stop(error.message.replace("Fundboard cannot start", "Fundboard's worker cannot start"));
    throw error;
  }
  for (const warning of config.warnings) console.warn(`[config] ${warning}`);

  const where = describeDatabase(config.database);
  let database: Database;
  try {
    // Migrated here as a dashboard's first start does (`npm run db:migrate` ahead of a deploy keeps this a check).
    database = await getDatabase();
    await claimDatabaseMode(database.db, config.sandbox ? "sandbox" : "live", where);
  } catch (error) {
    if (error instanceof DatabaseModeError) stop(error.message.replace("Fundboard cannot start", "Fundboard's worker cannot start"));
    stop(`Fundboard's worker cannot start: the database could not be opened (${safeErrorSummary(error)}). Check DATABASE_URL.`);
  }

  const plan = backgroundPlan("worker", config);
  const postgresUrl = config.database.kind === "postgres" ? config.database.url : null;
  try {
    const boss = await startJobEngine(database, postgresUrl, JOBS, { work: plan.jobs });
    await registerJobs(boss, JOBS, { db: database.db, log, signal: shutdownSignal });
  } catch (error) {
    stop(`Fundboard's worker cannot start: the job engine did not start (${safeErrorSummary(error)}).`);
  }
  installShutdown(database, log, "worker");
  watchHealth(database);
  log(`[worker] ready: ${JOBS.length} queues on ${where} as ${WORKED_BY}, in ${Date.now() - started} ms`);
}
