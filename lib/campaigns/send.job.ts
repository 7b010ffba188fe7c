import "server-only";

import { z } from "zod";

import { getConfig } from "@/lib/config";
import { defineJob } from "@/lib/jobs/define";
import { requestDeps } from "@/lib/requests/deps";
import { statusChecksHold } from "@/lib/requests/reconciler";
import { getSendingService } from "@/lib/service/app-client";

import { sendCampaignRows } from "./send";

// Campaign rows go out through the form's code path on the background client (docs/architecture.md,
// "Campaigns"), so they spend the background share of the budget and wait when it is spent; each send leaves
// free the slots the reconciler's owed status checks need (confirmations already hold sends in send.ts).

const QUEUE = "campaign-send";
/** Rows one pass sends at most before it hands over to the next pass. */
const ROWS_PER_PASS = 20;

export const campaignSendJob = defineJob({
  queue: QUEUE,
  payload: z.object({}),
  policy: {
    // "stately", like the reconciler: one pass running and one waiting across every instance.
    policy: "stately",
    // A failed pass is retried 3 times 5 s apart; rows are claimed before their call, so a retry never sends one twice.
    retryLimit: 3,
    retryDelay: 5,
    // A pass sends at most 20 rows at the budget's pace: well within 5 minutes.
    expireInSeconds: 300,
    retentionMinutes: 60,
  },
  work: { workers: 1, batchSize: 1, pollingIntervalSeconds: 1 },
  // Picks up sending campaigns should the chain break (a pass lost with its process).
  schedule: "* * * * *",
  handler: ({ db, boss, signal }) => {
    const deps = { ...requestDeps(db), service: getSendingService(() => statusChecksHold(db, getConfig().serviceRateLimitPerMin)), fetchGate: undefined };
    return async () => {
      const pass = await sendCampaignRows(deps, ROWS_PER_PASS, signal);
      // Shutting down: the per-minute clock carries the chain on wherever the engine runs next.
      if (pass.more && !signal.aborted) await boss.send(QUEUE, {}, { startAfter: new Date(Date.now() + pass.waitMs) });
    };
  },
});
