import "server-only";

import { z } from "zod";

import { pruneApiKeyState } from "@/lib/api-keys/retention";
import { pruneRefusedSignIns } from "@/lib/audit/retention";
import { pruneSessions } from "@/lib/auth/sessions";
import { pruneAttempts } from "@/lib/auth/throttle";
import { getConfig } from "@/lib/config";
import { EVENT_DAYS, pruneEvents } from "@/lib/events/retention";
import { NOTIFICATION_DAYS, pruneNotifications } from "@/lib/notifications/retention";
import { DELIVERY_DAYS, pruneDeliveries } from "@/lib/outbound/deliveries";
import { defineJob } from "@/lib/jobs/define";
import { purgeSpentChallenges } from "@/lib/pay-pages/challenge";
import { forgetPayAddresses } from "@/lib/pay-pages/retention";
import { pruneDeliveryLog } from "@/lib/webhooks/log-retention";

// What is kept how long (docs/architecture.md, "Jobs"; docs/decisions.md): each owner's prune function, hourly.
export const retentionJob = defineJob({
  queue: "retention",
  payload: z.object({}),
  // "stately": one run at a time; retried twice, then the next hour's run does the same work.
  policy: { policy: "stately", retryLimit: 2, expireInSeconds: 1800, retentionMinutes: 24 * 60 },
  work: { workers: 1, batchSize: 1, pollingIntervalSeconds: 30 },
  schedule: "17 * * * *",
  handler:
    ({ db, log }) =>
    async () => {
      const days = getConfig().deliveryLogDays;
      const deliveries = await pruneDeliveryLog(db, days);
      await pruneAttempts(db);
      const sessions = await pruneSessions(db);
      const refusals = await pruneRefusedSignIns(db);
      const old = await pruneEvents(db);
      const told = await pruneNotifications(db);
      const sent = await pruneDeliveries(db);
      const apiState = await pruneApiKeyState(db);
      const challenges = await purgeSpentChallenges(db);
      const addresses = await forgetPayAddresses(db);
      if (deliveries > 0) log(`[retention] ${deliveries} delivery-log rows older than ${days} days removed`);
      if (sessions > 0) log(`[retention] ${sessions} ended or expired session rows removed`);
      if (old > 0) log(`[retention] ${old} events older than ${EVENT_DAYS} days removed`);
      if (sent > 0) log(`[retention] ${sent} outgoing webhook deliveries older than ${DELIVERY_DAYS} days removed`);
      if (told > 0) log(`[retention] ${told} notifications older than ${NOTIFICATION_DAYS} days removed`);
      if (apiState > 0) log(`[retention] ${apiState} spent idempotency keys and rate windows of API keys removed`);
      if (challenges > 0) log(`[retention] ${challenges} expired pay-page challenges removed`);
      if (addresses > 0) log(`[retention] the address hashes of ${addresses} pay-page submissions older than 2 days forgotten`);
      if (refusals > 0) log(`[retention] ${refusals} refused sign-in rows older than 90 days removed from the audit log`);
    },
});
