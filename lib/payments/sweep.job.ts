import "server-only";

import { z } from "zod";

import { defineJob } from "@/lib/jobs/define";

import { paymentDeps } from "./deps";
import { sweepOnce } from "./sweep";

// Every minute: requests left `sending` by a dead process, payments whose follow-up was lost, link retries
// (lib/payments/sweep.ts; docs/architecture.md, "Jobs").
export const sweepJob = defineJob({
  queue: "sweep",
  payload: z.object({}),
  // "stately": one running sweep across every instance; not retried, since the next minute's sweep does the same work.
  policy: { policy: "stately", retryLimit: 0, expireInSeconds: 300, retentionMinutes: 60 },
  work: { workers: 1, batchSize: 1, pollingIntervalSeconds: 5 },
  schedule: "* * * * *",
  handler: ({ db, log }) => {
    const deps = paymentDeps(db);
    return async () => {
      const touched = await sweepOnce(deps);
      if (touched > 0) log(`[sweep] ${touched} payments or requests taken up`);
    };
  },
});
