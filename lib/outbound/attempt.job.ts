import "server-only";

import type PgBoss from "pg-boss";
import { z } from "zod";

import { defineJob } from "@/lib/jobs/define";
import { sendJob, sendJobs, wakeWorkers } from "@/lib/jobs/engine";
import { derivedJobId } from "@/lib/jobs/ids";

import { attemptDelivery, type AttemptResult } from "./attempt";
import { findDelivery } from "./deliveries";

// One attempt of one outgoing webhook delivery (docs/architecture.md "Outgoing webhooks"): its id derived from
// (delivery, round, attempt), so a repeat inserts nothing; a failure queues the next attempt on the schedule
// (lib/outbound/schedule.ts). An endpoint has at most PER_ENDPOINT attempts in flight on an instance: an attempt
// over that is put back a second later, so a slow or dead endpoint holds a few workers, never all of them.

const QUEUE = "webhook-attempt";
/** Attempts in flight to one endpoint on one instance (each may wait its full 15 s timeout). */
export const PER_ENDPOINT = 4;
/** How long an attempt over the cap waits before it is taken again. */
const DEFER_MS = 1_000;

const payload = z.object({
  deliveryId: z.uuid(),
  round: z.number().int().min(0),
  attempt: z.number().int().min(1),
  deferred: z.number().int().min(0).default(0),
});
type AttemptPayload = z.infer<typeof payload>;

export const attemptJobId = (p: AttemptPayload) => derivedJobId(QUEUE, `${p.deliveryId}:${p.round}:${p.attempt}:${p.deferred}`);

/** Queues an attempt (at once, or at `at`); the same (delivery, round, attempt) is one job however often it is queued. */
export async function queueAttempt(p: Omit<AttemptPayload, "deferred"> & { deferred?: number }, at?: Date, boss?: PgBoss): Promise<void> {
  const data: AttemptPayload = { deferred: 0, ...p };
  const options = { id: attemptJobId(data), ...(at ? { startAfter: at } : {}) };
  if (boss) await boss.send(QUEUE, data, options);
  else await sendJob(attemptJob, data, options);
  if (!at) wakeWorkers(QUEUE);
}

/** Queues the first attempt of each delivery in one statement (each once: the ids are derived). */
export async function queueFirstAttempts(deliveries: readonly { deliveryId: string; round: number }[]): Promise<void> {
  const items = deliveries.map((d) => {
    const data: AttemptPayload = { deliveryId: d.deliveryId, round: d.round, attempt: 1, deferred: 0 };
    return { id: attemptJobId(data), data };
  });
  if (items.length === 0) return;
  await sendJobs(attemptJob, items);
  wakeWorkers(QUEUE);
}

const inFlight = new Map<string, number>();

/** Runs the attempt under the endpoint's cap; answers null when the cap was full (the caller defers it). */
export async function underCap<T>(endpointId: string, work: () => Promise<T>): Promise<T | null> {
  const running = inFlight.get(endpointId) ?? 0;
  if (running >= PER_ENDPOINT) return null;
  inFlight.set(endpointId, running + 1);
  try {
    return await work();
  } finally {
    const left = (inFlight.get(endpointId) ?? 1) - 1;
    if (left > 0) inFlight.set(endpointId, left);
    else inFlight.delete(endpointId);
  }
}

export const attemptJob = defineJob({
  queue: QUEUE,
  payload,
  policy: {
    policy: "standard",
    // The schedule's attempts are jobs of their own; pg-boss's retry only covers one lost with its process
    // (it expires after 60 s: an attempt is bounded by its 15 s timeout).
    retryLimit: 2,
    retryDelay: 5,
    expireInSeconds: 60,
    retentionMinutes: 24 * 60,
  },
  // 16 attempts side by side on each instance, at most PER_ENDPOINT of them to one endpoint. Each worker polls every
  // 2 s (on the embedded database every poll shares its one connection); an attempt queued here wakes them at once.
  work: { workers: 16, batchSize: 1, pollingIntervalSeconds: 2 },
  handler:
    ({ db, boss }) =>
    async (jobs) => {
      let deferred = false;
      for (const job of jobs) {
        const delivery = await findDelivery(db, job.deliveryId);
        if (!delivery) continue;
        const result: AttemptResult | null = await underCap(delivery.endpointId, () =>
          attemptDelivery({ db }, job.deliveryId, job.round, job.attempt, delivery),
        );
        if (result === null) {
          await queueAttempt({ ...job, deferred: job.deferred + 1 }, new Date(Date.now() + DEFER_MS), boss);
          deferred = true;
          continue;
        }
        if (result.kind === "retry") await queueAttempt({ deliveryId: job.deliveryId, round: job.round, attempt: result.attempt }, result.at, boss);
      }
      // Put back over the cap: this worker waits its poll rather than taking the next deferred attempt at once.
      return deferred ? "wait" : undefined;
    },
});
