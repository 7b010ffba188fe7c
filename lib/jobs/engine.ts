import "server-only";

import { hostname } from "node:os";

import PgBoss from "pg-boss";

import type { Database } from "@/lib/db/client";
import { safeErrorSummary } from "@/lib/log/safe-error";

import type { Job, JobContext } from "./define";
import { pgliteAdapter } from "./pglite-adapter";
import { dropProcessSingleton, peekProcessSingleton, processSingleton, setProcessSingleton } from "@/lib/util/process-singleton";

// The one job engine (docs/architecture.md): pg-boss keeps its queue in our database, so a job survives any
// restart and runs once whichever instance takes it. See docs/architecture.md, "Jobs".

export interface JobEngineOptions {
  /**
   * false: an engine that only queues jobs (a web-only instance, WORKERS=0): no maintenance and no clock here, and
   * registerJobs is not called, so it works nothing (docs/decisions.md, "Workers apart (issue 38)"). Default true.
   */
  work?: boolean;
}

/** pg-boss on this database (its own small pool on Postgres), started, with the queue of every job made. */
export async function createJobEngine(
  database: Database,
  postgresUrl: string | null,
  jobs: readonly Job[],
  { work = true }: JobEngineOptions = {},
): Promise<PgBoss> {
  const common = {
    // Maintenance (expiring lost jobs, archiving) every 10 s, so a job lost with a killed process is retried soon.
    maintenanceIntervalSeconds: 10,
    archiveCompletedAfterSeconds: 60 * 60,
    // Maintenance and the cron clock run where the jobs are worked; an engine that only queues leaves them to the workers.
    supervise: work,
    schedule: work,
  };
  const boss =
    database.kind === "pglite" && database.pglite
      ? new PgBoss({ db: pgliteAdapter(database.pglite), ...common })
      : new PgBoss({ connectionString: postgresUrl ?? undefined, max: 4, application_name: "fundboard-jobs", ...common });
  boss.on("error", (error: unknown) => console.error(`[jobs] ${safeErrorSummary(error)}`));
  await boss.start();
  for (const { queue, policy } of jobs) {
    await boss.createQueue(queue, { name: queue, ...policy });
    // A queue made by an earlier version keeps its old options unless told: this deploy's apply.
    await boss.updateQueue(queue, { name: queue, ...policy });
  }
  if (database.kind === "pglite" && database.pglite) {
    // One process holds an embedded database (the DATA_DIR lock), so a job still "active" now was held
    // by a process that died: take it up at once instead of waiting for it to expire.
    await database.pglite.query("UPDATE pgboss.job SET state = 'retry', start_after = now() WHERE state = 'active'");
  }
  return boss;
}

/** The process's engine, started once (lib/server/start.ts, lib/server/worker.ts). */
export async function startJobEngine(database: Database, postgresUrl: string | null, jobs: readonly Job[], options: JobEngineOptions = {}): Promise<PgBoss> {
  return peekProcessSingleton<PgBoss>("jobs") ?? setProcessSingleton("jobs", await createJobEngine(database, postgresUrl, jobs, options));
}

/** The running engine, or null before start (scripts, tests that never start it). */
export function jobEngine(): PgBoss | null {
  return peekProcessSingleton<PgBoss>("jobs") ?? null;
}

/**
 * Which instance this process is, as each job it works alone records it (pg-boss keeps a handler's answer as
 * the job's `output`): an operator, and tests/scaleout, can see which instances take the shared queue's work.
 */
export const WORKED_BY = `${hostname()}:${process.pid}`;

/** This process's workers per queue (their ids, whether each is working a batch now, and the queue's batch size), for wakeWorkers. */
interface LocalWorkers {
  batchSize: number;
  workers: { id: string; busy: boolean }[];
}
const workerIds = () => processSingleton("jobs.workers", () => new Map<string, LocalWorkers>());

/**
 * Works every job on this process (its workers, each made once with `ctx`) and keeps the clocks: pg-boss
 * schedules live in the database, so several instances keep one clock. Chains are started once.
 */
export async function registerJobs(boss: PgBoss, jobs: readonly Job[], ctx: Omit<JobContext, "boss">): Promise<void> {
  const ids = workerIds();
  for (const job of jobs) {
    const run = job.start({ ...ctx, boss });
    const { workers, ...options } = job.work;
    // A "stately" queue holds one waiting job at most (a chain's next pass, queued for later): a full batch says nothing
    // is waiting, and fetching again at once would only let the instance that ran a pass take the next one too.
    const drains = (job.policy.policy ?? "standard") === "standard";
    const local = ids.get(job.queue) ?? { batchSize: options.batchSize, workers: [] };
    ids.set(job.queue, local);
    for (let i = 0; i < workers; i++) {
      const worker = { id: "", busy: false };
      worker.id = await boss.work<object>(job.queue, options, async (batch) => {
        worker.busy = true;
        const outcome = await run(batch.map((j) => j.data)).finally(() => {
          worker.busy = false;
        });
        // pg-boss waits out the polling interval after every fetch; a full batch that was worked means more may be
        // waiting, so the worker fetches again at once and a backlog drains at the handler's pace. It first lets the
        // event loop turn: on the embedded database a query never leaves the microtask queue, so a draining worker
        // would otherwise starve timers and sockets (docs/decisions.md, "Workers drain").
        if (drains && batch.length >= options.batchSize && outcome !== "wait") {
          await new Promise<void>((resolve) => setImmediate(resolve));
          boss.notifyWorker(worker.id);
        }
        return { workedBy: WORKED_BY };
      });
      local.workers.push(worker);
    }
  }
  for (const job of jobs) {
    if (job.schedule) await boss.schedule(job.queue, job.schedule, {}, job.scheduleTimeZone ? { tz: job.scheduleTimeZone() } : {});
    if (job.kickOff) await boss.send(job.queue, {});
  }
}

/**
 * Jobs queued by this process are fetched now by this process's workers, not at their next poll. Given how many were
 * queued, only as many workers as their batches need are woken, idle ones first: on the embedded database every
 * fetch that finds nothing is a statement the others wait behind.
 */
export function wakeWorkers(name: string, jobs?: number): void {
  const boss = jobEngine();
  const local = workerIds().get(name);
  if (!boss || !local) return;
  const wanted = jobs === undefined ? local.workers.length : Math.max(1, Math.ceil(jobs / local.batchSize));
  const idleFirst = [...local.workers.filter((w) => !w.busy), ...local.workers.filter((w) => w.busy)];
  for (const worker of idleFirst.slice(0, wanted)) boss.notifyWorker(worker.id);
}

/** Queues a job; a failure is logged, never thrown at the person whose request caused it. */
export async function sendJob<T extends object>(job: Job<T>, data: T, options: PgBoss.SendOptions = {}): Promise<string | null> {
  const boss = jobEngine();
  if (!boss) return null;
  try {
    return await boss.send(job.queue, data, options);
  } catch (error) {
    console.error(`[jobs] could not queue ${job.queue}: ${safeErrorSummary(error)}`);
    return null;
  }
}

/**
 * Queues several jobs of one queue in one statement (each its own id; an id already queued is left alone); a failure
 * is logged, never thrown. Answers whether they were queued.
 */
export async function sendJobs<T extends object>(job: Job<T>, items: readonly { id: string; data: T }[]): Promise<boolean> {
  const boss = jobEngine();
  if (!boss || items.length === 0) return false;
  try {
    await boss.insert(items.map((item) => ({ id: item.id, name: job.queue, data: item.data })));
    return true;
  } catch (error) {
    console.error(`[jobs] could not queue ${items.length} of ${job.queue}: ${safeErrorSummary(error)}`);
    return false;
  }
}

/** Stops taking jobs and lets running ones finish (up to 10 s). */
export async function stopJobEngine(): Promise<void> {
  const boss = peekProcessSingleton<PgBoss>("jobs");
  dropProcessSingleton("jobs");
  dropProcessSingleton("jobs.workers");
  await boss?.stop({ graceful: true, timeout: 10_000, close: true, wait: true });
}
