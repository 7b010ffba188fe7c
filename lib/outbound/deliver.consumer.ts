import "server-only";

import { consumerPayload, loadEvents, type EventConsumer } from "@/lib/events/consumer";
import { defineJob } from "@/lib/jobs/define";

import { attemptNow, firstAttempt, queueAttempts, SLOT_WAIT_MS, wakeAttempts } from "./attempt.job";
import { ensureDeliveries } from "./deliveries";
import { enabledEndpoints, findEndpoints, wantsType } from "./endpoints";

// The outgoing webhooks' consumer (docs/architecture.md "Outgoing webhooks"): for each event, every enabled endpoint
// that wants its type gets one delivery (unique per event and endpoint) and its first attempt at once: made here when
// the endpoint is not failing and has a slot free, else queued as an attempt job (docs/decisions.md "The first attempt
// is made by the consumer").

export const deliverConsumer: EventConsumer = {
  name: "outgoing-webhooks",
  types: "all",
  recipientsFor: async (db) => {
    const endpoints = await enabledEndpoints(db);
    return (event) => endpoints.filter((e) => wantsType(e, event.type)).map((e) => e.id);
  },
  job: defineJob({
    queue: "webhook-deliver",
    payload: consumerPayload,
    // A batch posts its first attempts (each up to 15 s); one lost with its process expires after 30 s and is retried
    // (its deliveries are made once, and an attempt already recorded is not made again).
    policy: { policy: "standard", retryLimit: 3, retryDelay: 5, expireInSeconds: 30, retentionMinutes: 60 },
    // A batch of 50 (a burst of events to three endpoints is 150 jobs a second) reads its events and endpoints, makes its
    // deliveries in a statement each, posts the first attempts side by side and records them in one more. The
    // dispatcher wakes these workers when it queues their jobs; the poll is the fallback (another instance's dispatch).
    work: { workers: 2, batchSize: 50, pollingIntervalSeconds: 2 },
    handler:
      ({ db, boss }) =>
      async (jobs) => {
        // The deliveries and the attempts queued for them commit together; on the embedded database the batch's
        // statements wait their turn behind the payments arriving once.
        const { here, endpoints, due } = await db.transaction(async (tx) => {
          const loaded = await loadEvents(tx, [...new Set(jobs.map((j) => j.eventId))]);
          const endpoints = await findEndpoints(tx, [...new Set(jobs.map((j) => j.recipient))]);
          const wanted = jobs.flatMap((job) => {
            const event = loaded.get(job.eventId);
            const endpoint = endpoints.get(job.recipient);
            return event && endpoint?.enabled ? [{ endpointId: endpoint.id, event }] : [];
          });
          const deliveries = await ensureDeliveries(tx, wanted);
          const pending = deliveries.filter((d) => d.status === "pending" && d.round === 0);
          // Not yet attempted: made here when the endpoint is not failing (a failing one may take its full 15 s, so its
          // attempts wait in their own queue, under its cap, and never hold this batch).
          const fresh = pending.filter((d) => d.attempts === 0);
          const here = fresh.filter((d) => endpoints.get(d.endpointId)?.failingSince === null);
          const queued = fresh.filter((d) => !here.includes(d));
          // A repeat of this job (its process died after an attempt was recorded): the next attempt is queued at the
          // time the delivery shows, under the id its attempt would have queued it with (so at most once).
          const repeated = pending.filter((d) => d.attempts > 0 && d.nextAttemptAt !== null);
          const due = await queueAttempts(
            boss,
            [
              ...queued.map((d) => ({ data: firstAttempt({ deliveryId: d.id, round: d.round }) })),
              ...repeated.map((d) => ({ data: { deliveryId: d.id, round: d.round, attempt: d.attempts + 1, deferred: 0 }, at: d.nextAttemptAt ?? undefined })),
            ],
            tx,
          );
          return { here, endpoints, due };
        });
        wakeAttempts(due);
        // Each waits for its endpoint's slot as an attempt job does (a quick endpoint frees one within milliseconds); one
        // that gets none is queued at once, to wait its turn there.
        await attemptNow(
          db,
          boss,
          here.map((d) => firstAttempt({ deliveryId: d.id, round: d.round })),
          { deliveries: new Map(here.map((d) => [d.id, d])), endpoints },
          SLOT_WAIT_MS,
          (job) => ({ data: job }),
        );
      },
  }),
};
