import "server-only";

import type PgBoss from "pg-boss";
import type { z } from "zod";

import type { Db } from "@/lib/db/client";

// What a job is (docs/architecture.md, "Jobs"): one `*.job.ts` in its domain declares its queue, payload,
// policy and handler with defineJob; lib/server/workers.ts lists them; lib/jobs runs them and knows no domain.

/** What every handler is given: the database, the engine (for a follow-on job), a log line writer, and shutdown. */
export interface JobContext {
  db: Db;
  boss: PgBoss;
  log: (line: string) => void;
  /** Aborted when the instance is shutting down: a long handler stops between steps and leaves the rest to the next run. */
  signal: AbortSignal;
}

/** What a batch handler answers: nothing (worked), or "wait" (put back; fetch again only at the next poll). */
export type BatchOutcome = void | "wait";

export interface JobDefinition<T extends object = object> {
  /** The queue's name in pg-boss (kebab-case, stable: renaming it strands queued jobs). */
  queue: string;
  /** Every payload is parsed with this before the handler sees it. */
  payload: z.ZodType<T>;
  /** Retries, expiry and the queue policy; each number with its reason beside it in the job file. */
  policy: Omit<PgBoss.Queue, "name">;
  /** How this instance fetches: workers, batch size and polling. */
  work: { workers: number; batchSize: number; pollingIntervalSeconds: number };
  /** A cron line (pg-boss's schedule, one clock for every instance), when the job also runs on a clock. */
  schedule?: string;
  /** The time zone the cron line is read in (asked at registration, from the configuration); UTC without. */
  scheduleTimeZone?: () => string;
  /** Queue one job at start (a chain that each run continues). */
  kickOff?: boolean;
  /**
   * Made once per instance at start (it may keep state across runs); answers the batch handler. The handler answers
   * "wait" when what it took could not be worked yet (put back for later): its worker then waits its polling interval
   * instead of fetching again at once.
   */
  handler: (ctx: JobContext) => (jobs: readonly T[]) => Promise<BatchOutcome>;
}

/** A declared job as the engine holds it: payloads are parsed with the job's schema before its handler runs. */
export interface Job<T extends object = object> {
  queue: string;
  policy: JobDefinition<T>["policy"];
  work: JobDefinition<T>["work"];
  schedule?: string;
  scheduleTimeZone?: () => string;
  kickOff?: boolean;
  start(ctx: JobContext): (payloads: readonly unknown[]) => Promise<BatchOutcome>;
  /** Carries the payload type to sendJob; never set. */
  readonly payloadType?: T;
}

/** Declares a job: its payloads are parsed with `payload` (a malformed one fails the job, never reaches the handler). */
export function defineJob<T extends object>(definition: JobDefinition<T>): Job<T> {
  const { handler, payload, ...rest } = definition;
  return {
    ...rest,
    start(ctx) {
      const run = handler(ctx);
      // A job sent without data (a clock of an older version) carries null: read as an empty payload.
      return (payloads) => run(payloads.map((p) => payload.parse(p ?? {})));
    },
  };
}

/** Runs `work` over `items`, `limit` at a time; answers the errors (the others still run). */
export async function runLimited<T>(items: readonly T[], limit: number, work: (item: T) => Promise<void>): Promise<unknown[]> {
  const failures: unknown[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(limit, items.length) }, async () => {
      for (let item = items[next++]; item !== undefined; item = items[next++]) await work(item).catch((error: unknown) => failures.push(error));
    }),
  );
  return failures;
}
