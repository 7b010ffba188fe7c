import "server-only";

import { z } from "zod";

import { defineJob } from "@/lib/jobs/define";
import { getConfig } from "@/lib/config";
import { getBackgroundService } from "@/lib/service/app-client";
import { checksShare } from "@/lib/service/budget";

import { requestDeps } from "./deps";
import { createReconciler } from "./reconciler";

// Declines send no webhook, so pending requests are read back from the service (docs/architecture.md, "Jobs"):
// one pass at a time across every instance, each pass queueing the next.

const QUEUE = "reconcile";
/** Pause between passes: each pass queues the next this far ahead. */
const EVERY_MS = 1_000;

// The pace the previous pass left (lib/requests/reconciler.ts ReconcilerPace); none for a chain the clock starts.
const paceSchema = z.object({ tokens: z.number(), lastRefill: z.number(), backoffMs: z.number(), pausedUntil: z.number() });

export const reconcileJob = defineJob({
  queue: QUEUE,
  payload: z.object({ pace: paceSchema.optional() }),
  policy: {
    // "stately": at most one waiting and one running pass, across all instances, so a second sender changes nothing.
    policy: "stately",
    // A pass takes seconds (its calls run side by side, each capped at 10 s): one lost with a killed instance
    // expires after 15 s and is retried once at once, which carries the chain on on whichever instance takes it.
    retryLimit: 1,
    retryDelay: 0,
    expireInSeconds: 15,
    retentionMinutes: 10,
  },
  work: { workers: 1, batchSize: 1, pollingIntervalSeconds: 1 },
  // Restarts the chain within a minute should it ever break (a pass lost with its process).
  schedule: "* * * * *",
  kickOff: true,
  handler: ({ db, boss, log, signal }) => {
    // Its calls spend the background budget; its own pace travels with the chain, so passes on any instance share it.
    const reconciler = createReconciler(
      { ...requestDeps(db), service: getBackgroundService() },
      { budgetPerMinute: checksShare(getConfig().serviceRateLimitPerMin), log: (line) => log(`[reconciler] ${line}`) },
    );
    return async (jobs) => {
      const pace = jobs[jobs.length - 1]?.pace;
      if (pace) reconciler.resume(pace);
      try {
        await reconciler.runOnce();
      } finally {
        if (!signal.aborted) await boss.send(QUEUE, { pace: reconciler.pace() }, { startAfter: new Date(Date.now() + EVERY_MS) });
      }
    };
  },
});
