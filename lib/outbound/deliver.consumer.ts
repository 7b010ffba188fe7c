import "server-only";

import { consumerPayload, loadEvent, type EventConsumer } from "@/lib/events/consumer";
import { defineJob } from "@/lib/jobs/define";

import { queueAttempt } from "./attempt.job";
import { ensureDelivery } from "./deliveries";
import { enabledEndpoints, findEndpoint, wantsType } from "./endpoints";

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
    // Two statements and a send; one lost with its process expires after 30 s and is retried (its delivery is made once).
    policy: { policy: "standard", retryLimit: 3, retryDelay: 5, expireInSeconds: 30, retentionMinutes: 60 },
    // The dispatcher wakes these workers when it queues their jobs; the poll is the fallback (another instance's dispatch).
    work: { workers: 2, batchSize: 8, pollingIntervalSeconds: 2 },
    handler:
      ({ db }) =>
      async (jobs) => {
        for (const job of jobs) {
          const [event, endpoint] = await Promise.all([loadEvent(db, job.eventId), findEndpoint(db, job.recipient)]);
          if (!event || !endpoint?.enabled) continue;
          const delivery = await ensureDelivery(db, endpoint.id, event);
          // A repeat of this job (its process died after the insert) queues the first attempt again: the same job id.
          if (delivery.status === "pending" && delivery.attempts === 0) await queueAttempt({ deliveryId: delivery.id, round: delivery.round, attempt: 1 });
        }
      },
  }),
};
