import "server-only";

import { z } from "zod";

import { getConfig } from "@/lib/config";
import { defineJob } from "@/lib/jobs/define";

import { scanExceptions } from "./detect";

// The exceptions scan (docs/architecture.md, "Closing the books"): once a minute over every row, for what only time
// reveals (an accepted request whose payment never came) and what a crash skipped. A payment's own exceptions are
// opened and closed by its follow-up at once (lib/payments/follow-up.job.ts); this is the net under it.
export const exceptionsScanJob = defineJob({
  queue: "exceptions-scan",
  payload: z.object({}),
  policy: {
    // "stately": one scan running and one waiting across every instance; the unique kind+subject makes a second harmless.
    policy: "stately",
    // Not retried: the next minute's scan does the same work.
    retryLimit: 0,
    // A scan of 100,000 payments takes seconds; 5 minutes is far beyond any.
    expireInSeconds: 300,
    retentionMinutes: 60,
  },
  work: { workers: 1, batchSize: 1, pollingIntervalSeconds: 10 },
  schedule: "* * * * *",
  handler:
    ({ db, log }) =>
    async () => {
      const { opened, closed } = await scanExceptions(db, { now: new Date(), lostWebhookMinutes: getConfig().lostWebhookMinutes });
      if (opened + closed > 0) log(`[exceptions] ${opened} opened, ${closed} closed by themselves`);
    },
});
