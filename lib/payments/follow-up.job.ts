import "server-only";

import type PgBoss from "pg-boss";
import { z } from "zod";

import { getConfig } from "@/lib/config";
import { scanExceptions } from "@/lib/exceptions/detect";
import { defineJob } from "@/lib/jobs/define";
import { jobEngine, wakeWorkers } from "@/lib/jobs/engine";
import { derivedJobId } from "@/lib/jobs/ids";
import { safeErrorSummary } from "@/lib/log/safe-error";
import { createGroupCommit, type GroupCommit } from "@/lib/util/group-commit";
import { waitForQuietIntake } from "@/lib/webhooks/intake-pressure";

import { followUpPayments } from "./after-record";
import { linkPayments } from "./link";
import { paymentDeps, type PaymentDeps } from "./deps";
import { processSingleton } from "@/lib/util/process-singleton";

// A payment's follow-up (docs/architecture.md, "A webhook delivery"): link it to its request at once, confirm the
// link at the service, then verify it at the verify host. One job per payment uuid, queued by the webhook before its 200.

const QUEUE = "payment-follow-up";
// During a burst of deliveries a batch waits for a lull before linking, at most LINK_YIELD_MAX_MS, and before
// verifying, at most YIELD_MAX_MS in all (then it runs anyway): the acknowledgement comes first, a request still
// moves with its payment within a second or two, and follow-ups are never starved.
const LINK_YIELD_MAX_MS = 1_500;
const YIELD_MAX_MS = 5_000;
// Each fetch takes a batch, worked this many at a time: a burst is followed up at tens a second, not one.
const CONCURRENCY = 8;

export const followUpJob = defineJob({
  queue: QUEUE,
  payload: z.object({ uuid: z.string().min(1) }),
  policy: {
    policy: "standard",
    // A failed batch is retried 5 times, 5 s apart and backing off: the verify host's hiccups pass, and a
    // job lost with a killed instance is running again within about a minute and a half.
    retryLimit: 5,
    retryDelay: 5,
    retryBackoff: true,
    // A job lost with its process expires after a minute and is retried (a rare slow one may run twice: the work is idempotent).
    expireInSeconds: 60,
    // Kept a week, so a payment's follow-up can be looked up when someone asks why it was not linked.
    retentionMinutes: 7 * 24 * 60,
  },
  // Two workers of 8: a batch waiting for a lull does not hold back the other.
  work: { workers: 2, batchSize: 8, pollingIntervalSeconds: 1 },
  handler: ({ db }) => {
    const deps = paymentDeps(db);
    return async (jobs) =>
      followUpBatch(
        deps,
        jobs.map((job) => job.uuid),
        getConfig().lostWebhookMinutes,
      );
  },
});

/**
 * One batch of follow-ups: linked after a short lull (a matching request turns accepted with its payment), then
 * confirmed and verified. Throws when any step of any payment could not be done now, so the job is retried.
 */
export async function followUpBatch(deps: PaymentDeps, uuids: readonly string[], lostWebhookMinutes: number): Promise<void> {
  const waited = await waitForQuietIntake(LINK_YIELD_MAX_MS);
  const linkFailures = await linkPayments(deps, uuids, CONCURRENCY);
  await waitForQuietIntake(Math.max(0, YIELD_MAX_MS - waited));
  // The batch is retried whole on a failure: the work is idempotent, so redoing the ones that succeeded changes
  // nothing. Each payment is linked once a run (above): a link that could not be made now (the service not asked,
  // or not yet saying which request) waits for the retry rather than asking the service again at once.
  const failures = [...linkFailures, ...(await followUpPayments(deps, uuids, { link: false, concurrency: CONCURRENCY }))];
  // What linking and verifying decided opens or closes the batch's exceptions now, not at the next minute's scan.
  await scanExceptions(deps.db, { paymentUuids: [...uuids], now: new Date(), lostWebhookMinutes });
  if (failures.length > 0) throw new Error(`${failures.length} steps of ${uuids.length} follow-ups failed: ${safeErrorSummary(failures[0])}`);
}

/** The one job id a payment's follow-up can have: a second send for the same uuid inserts nothing. */
export function followUpJobId(paymentUuid: string): string {
  return derivedJobId(QUEUE, paymentUuid.toLowerCase());
}

// Deliveries answered together share one insert of their follow-up jobs: each waits for the insert holding its
// job before its 200, so a crash before the insert means no 200 and the service's retry queues the job again.

export type FollowUpQueue = GroupCommit<string>;

/** A queue over `insert`: the payments of callers arriving together are stored by one insert. */
export function createFollowUpQueue(insert: (jobs: PgBoss.JobInsert[]) => Promise<unknown>): FollowUpQueue {
  return createGroupCommit<string>(async (uuids) => {
    const unique = [...new Set(uuids.map((u) => u.toLowerCase()))];
    await insert(unique.map((uuid) => ({ name: QUEUE, id: followUpJobId(uuid), data: { uuid } })));
  });
}

/** Queues the payment's follow-up (link, then verify) on the process's job engine; nothing before the engine starts. */
export function queueFollowUp(paymentUuid: string): Promise<void> {
  const queue = processSingleton("follow-up-queue", () =>
    createFollowUpQueue(async (jobs) => {
      const boss = jobEngine();
      if (!boss) return;
      await boss.insert(jobs);
      // Taken here at once (a payment's request turns "accepted" in the browsers within moments), not at the next poll.
      wakeWorkers(QUEUE, jobs.length);
    }),
  );
  return queue.add(paymentUuid);
}
