import "server-only";

import type PgBoss from "pg-boss";
import { z } from "zod";

import { defineJob } from "@/lib/jobs/define";
import { sendJob, wakeWorkers } from "@/lib/jobs/engine";
import type { Db } from "@/lib/db/client";
import { derivedJobId } from "@/lib/jobs/ids";
import { jobsDb } from "@/lib/jobs/in-transaction";

import { attemptDeliveries, type AttemptRows } from "./attempt";
import { findDeliveriesWithEndpoints } from "./endpoints";

// One attempt of one outgoing webhook delivery (docs/architecture.md "Outgoing webhooks"): its id derived from
// (delivery, round, attempt), so a repeat inserts nothing; a failure queues the next attempt on the schedule
// (lib/outbound/schedule.ts). An endpoint has at most PER_ENDPOINT attempts in flight on an instance: an attempt
// over that is put back a second later, so a slow or dead endpoint holds a few workers, never all of them.

const QUEUE = "webhook-attempt";
/** Attempts in flight to one endpoint on one instance (each may wait its full 15 s timeout). */
export const PER_ENDPOINT = 4;
/** How long an attempt over the cap waits before it is taken again. */
const DEFER_MS = 1_000;
/** How long an attempt waits for its endpoint's slot before it is put back: a quick endpoint frees one in milliseconds. */
export const SLOT_WAIT_MS = 500;

const payload = z.object({
  deliveryId: z.uuid(),
  round: z.number().int().min(0),
  attempt: z.number().int().min(1),
  deferred: z.number().int().min(0).default(0),
});
export type AttemptPayload = z.infer<typeof payload>;

export const attemptJobId = (p: AttemptPayload) => derivedJobId(QUEUE, `${p.deliveryId}:${p.round}:${p.attempt}:${p.deferred}`);

/** Queues an attempt (at once, or at `at`); the same (delivery, round, attempt) is one job however often it is queued. */
export async function queueAttempt(p: Omit<AttemptPayload, "deferred"> & { deferred?: number }, at?: Date, boss?: PgBoss): Promise<void> {
  const data: AttemptPayload = { deferred: 0, ...p };
  const options = { id: attemptJobId(data), ...(at ? { startAfter: at } : {}) };
  if (boss) await boss.send(QUEUE, data, options);
  else await sendJob(attemptJob, data, options);
  if (!at) wakeWorkers(QUEUE, 1);
}

/** The first attempt's payload: the same job id however often (and by whom) it is queued. */
export const firstAttempt = (d: { deliveryId: string; round: number }): AttemptPayload => ({
  deliveryId: d.deliveryId,
  round: d.round,
  attempt: 1,
  deferred: 0,
});

/**
 * Queues attempts (each at its time; once each: the ids are derived) in one statement. Given a transaction, they are
 * queued in it and the caller wakes the workers after its commit (`wakeAttempts` with the answer: how many are due
 * now); otherwise this wakes them.
 */
export async function queueAttempts(boss: PgBoss, items: readonly { data: AttemptPayload; at?: Date }[], tx?: Db): Promise<number> {
  if (items.length === 0) return 0;
  const jobs = items.map(({ data, at }) => ({ id: attemptJobId(data), name: QUEUE, data, ...(at ? { startAfter: at } : {}) }));
  if (tx) await boss.insert(jobs, { db: jobsDb(tx) });
  else await boss.insert(jobs);
  const now = items.filter((i) => !i.at || i.at.getTime() <= Date.now()).length;
  if (!tx) wakeAttempts(now);
  return now;
}

/** Wakes as many attempt workers as `due` attempts fill batches (none for 0). */
export function wakeAttempts(due: number): void {
  if (due > 0) wakeWorkers(QUEUE, due);
}

const inFlight = new Map<string, number>();
/** Attempts waiting for a slot of their endpoint, first come first served. */
const waiting = new Map<string, (() => void)[]>();

/** A slot of the endpoint's cap: at once when one is free, else when one frees within `waitMs`; false after that. */
function takeSlot(endpointId: string, waitMs: number): Promise<boolean> | boolean {
  const running = inFlight.get(endpointId) ?? 0;
  if (running < PER_ENDPOINT) {
    inFlight.set(endpointId, running + 1);
    return true;
  }
  if (waitMs <= 0) return false;
  return new Promise<boolean>((resolve) => {
    const queue = waiting.get(endpointId) ?? [];
    const handOver = () => {
      clearTimeout(timer);
      resolve(true);
    };
    const timer = setTimeout(() => {
      const left = (waiting.get(endpointId) ?? []).filter((w) => w !== handOver);
      if (left.length > 0) waiting.set(endpointId, left);
      else waiting.delete(endpointId);
      resolve(false);
    }, waitMs);
    queue.push(handOver);
    waiting.set(endpointId, queue);
  });
}

/** Frees a slot: handed to the first attempt waiting for it, if any. */
function freeSlot(endpointId: string): void {
  const queue = waiting.get(endpointId);
  const next = queue?.shift();
  if (queue && queue.length === 0) waiting.delete(endpointId);
  if (next) return next();
  const left = (inFlight.get(endpointId) ?? 1) - 1;
  if (left > 0) inFlight.set(endpointId, left);
  else inFlight.delete(endpointId);
}

/**
 * Runs the attempt under the endpoint's cap, waiting up to `waitMs` for a slot (a quick endpoint frees one within
 * milliseconds; a slow one does not); answers null when none came (the caller puts the attempt back).
 */
export async function underCap<T>(endpointId: string, work: () => Promise<T>, waitMs = 0): Promise<T | null> {
  if (!(await takeSlot(endpointId, waitMs))) return null;
  try {
    return await work();
  } finally {
    freeSlot(endpointId);
  }
}

export const attemptJob = defineJob({
  queue: QUEUE,
  payload,
  policy: {
    policy: "standard",
    // The schedule's attempts are jobs of their own; pg-boss's retry only covers one lost with its process
    // (it expires after 60 s: an attempt is bounded by its 15 s timeout, and by SLOT_WAIT_MS waiting for its slot).
    retryLimit: 2,
    retryDelay: 5,
    expireInSeconds: 60,
    retentionMinutes: 24 * 60,
  },
  // 8 workers of 10 attempts on each instance, posted side by side, at most PER_ENDPOINT at once to one endpoint: a
  // slow endpoint holds at most PER_ENDPOINT batches (two at their full timeout can hold all 8: docs/decisions.md,
  // "A slow endpoint holds at most 4 workers"). A batch reads its deliveries with their endpoints in one statement,
  // records its attempts in one and notes each endpoint once. Each worker polls every 2 s; attempts queued here wake
  // as many workers as they fill batches.
  work: { workers: 8, batchSize: 10, pollingIntervalSeconds: 2 },
  handler:
    ({ db, boss }) =>
    async (jobs) => {
      const rows = await findDeliveriesWithEndpoints(
        db,
        jobs.map((job) => job.deliveryId),
      );
      const putBack = await attemptNow(db, boss, jobs, rows, SLOT_WAIT_MS, (job) => ({
        data: { ...job, deferred: job.deferred + 1 },
        at: new Date(Date.now() + DEFER_MS),
      }));
      // Put back over the cap: this worker waits its poll rather than taking the next deferred attempt at once.
      return putBack > 0 ? "wait" : undefined;
    },
});

/**
 * Makes these attempts now, side by side, each under its endpoint's cap (waiting up to `waitMs` for a slot), and
 * queues what follows in one insert: a failed attempt's next one on the schedule, and an attempt that got no slot as
 * `putBack` says. Used by the attempt job and by the consumer's first attempt (./deliver.consumer.ts). Answers how
 * many were put back.
 */
export async function attemptNow(
  db: Db,
  boss: PgBoss,
  jobs: readonly AttemptPayload[],
  rows: AttemptRows,
  waitMs: number,
  putBack: (job: AttemptPayload) => { data: AttemptPayload; at?: Date },
): Promise<number> {
  let putBackCount = 0;
  let due = 0;
  // Retries and those put back, in one insert in the attempts' commit (each id derived: a repeat of this batch queues
  // nothing new).
  await attemptDeliveries(
    { db },
    jobs,
    rows,
    (endpointId, work) => underCap(endpointId, work, waitMs),
    async (tx, results) => {
      const later: { data: AttemptPayload; at?: Date }[] = [];
      results.forEach((result, i) => {
        const job = jobs[i] as AttemptPayload;
        if (result === null) {
          later.push(putBack(job));
          putBackCount++;
        } else if (result.kind === "retry")
          later.push({ data: { deliveryId: job.deliveryId, round: job.round, attempt: result.attempt, deferred: 0 }, at: result.at });
      });
      due = await queueAttempts(boss, later, tx);
    },
  );
  wakeAttempts(due);
  return putBackCount;
}
