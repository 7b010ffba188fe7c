import "server-only";

import { z } from "zod";

import { wakeCampaignSender } from "@/lib/campaigns/actions";
import { defineJob } from "@/lib/jobs/define";

import { runPlanClock } from "./periods";

// The plans clock (docs/architecture.md, "Plans"): pg-boss's schedule ticks once a minute for every instance
// together; each tick makes the periods due since the last one (periods.ts) and wakes the campaign sender.
export const plansClockJob = defineJob({
  queue: "plan-periods",
  payload: z.object({}),
  policy: {
    // "stately": one tick running and one waiting across every instance; a period's unique row makes a second harmless.
    policy: "stately",
    // A failed tick is retried twice 10 s apart; the next minute's tick does the same work anyway.
    retryLimit: 2,
    retryDelay: 10,
    // Making a period of 10,000 members takes seconds; 5 minutes is far beyond any tick.
    expireInSeconds: 300,
    retentionMinutes: 60,
  },
  work: { workers: 1, batchSize: 1, pollingIntervalSeconds: 10 },
  schedule: "* * * * *",
  handler:
    ({ db, log }) =>
    async () => {
      const pass = await runPlanClock(db, new Date(), log);
      for (const m of pass.missed) log(`[plans] plan ${m.planId}: ${m.period} was due more than 72 h ago; listed as missed`);
      await wakeCampaignSender([...pass.made, ...pass.chased].map((s) => s.campaignId));
    },
});
