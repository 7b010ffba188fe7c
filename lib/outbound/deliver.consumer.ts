import "server-only";

import { consumerPayload, loadEvents, type EventConsumer } from "@/lib/events/consumer";
import { defineJob } from "@/lib/jobs/define";

import { queueFirstAttempts } from "./attempt.job";
import { ensureDeliveries } from "./deliveries";
import { enabledEndpoints, findEndpoints, wantsType } from "./endpoints";

// The outgoing webhooks' consumer (docs/architecture.md "Outgoing webhooks"): for each event, every enabled endpoint
// that wants its type gets one delivery (unique per event and endpoint) and its first attempt, queued at once.

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
    // A few statements a batch; one lost with its process expires after 30 s and is retried (its deliveries are made once).
    policy: { policy: "standard", retryLimit: 3, retryDelay: 5, expireInSeconds: 30, retentionMinutes: 60 },
    // A batch of 50 (a burst of events to three endpoints is 150 jobs a second) reads its events and endpoints, makes its
    // deliveries and queues their first attempts in a statement each. The dispatcher wakes these workers when it queues
    // their jobs; the poll is the fallback (another instance's dispatch).
    work: { workers: 2, batchSize: 50, pollingIntervalSeconds: 2 },
    handler:
      ({ db }) =>
      async (jobs) => {
        const [loaded, endpoints] = await Promise.all([
          loadEvents(db, [...new Set(jobs.map((j) => j.eventId))]),
          findEndpoints(db, [...new Set(jobs.map((j) => j.recipient))]),
        ]);
        const wanted = jobs.flatMap((job) => {
          const event = loaded.get(job.eventId);
          const endpoint = endpoints.get(job.recipient);
          return event && endpoint?.enabled ? [{ endpointId: endpoint.id, event }] : [];
        });
        const deliveries = await ensureDeliveries(db, wanted);
        // A repeat of this job (its process died after the insert) queues the first attempts again: the same job ids.
        await queueFirstAttempts(deliveries.filter((d) => d.status === "pending" && d.attempts === 0).map((d) => ({ deliveryId: d.id, round: d.round })));
      },
  }),
};
