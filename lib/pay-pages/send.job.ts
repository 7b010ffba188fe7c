import "server-only";

import { z } from "zod";

import { defineJob } from "@/lib/jobs/define";
import { sendJob, wakeWorkers } from "@/lib/jobs/engine";
import { requestDeps } from "@/lib/requests/deps";
import { getPublicService } from "@/lib/service/app-client";

import { sendPayPageSubmissions } from "./send";

// Pay pages' requests go out from this job, on the `public` client (docs/architecture.md "The service budget": after
// reads, at most a sixth of the limit), never from the payer's HTTP request.

const QUEUE = "pay-page-send";
/** Submissions one pass handles at most before it hands over to the next pass. */
const PER_PASS = 20;

export const payPageSendJob = defineJob({
  queue: QUEUE,
  payload: z.object({}),
  policy: {
    // "stately": one pass running and one waiting across every instance, so two passes never race a submission.
    policy: "stately",
    // A failed pass is retried 3 times 5 s apart; each request's key comes from its submission, so none is sent twice.
    retryLimit: 3,
    retryDelay: 5,
    // 20 submissions at the public share's pace (15 calls a minute at the default limit) take under 2 minutes.
    expireInSeconds: 300,
    retentionMinutes: 60,
  },
  work: { workers: 1, batchSize: 1, pollingIntervalSeconds: 2 },
  // Picks up queued submissions should the chain break (a pass lost with its process).
  schedule: "* * * * *",
  handler: ({ db, boss, signal }) => {
    const deps = { ...requestDeps(db, getPublicService()), fetchGate: undefined };
    return async () => {
      const pass = await sendPayPageSubmissions(deps, PER_PASS, signal);
      if (pass.more && !signal.aborted) await boss.send(QUEUE, {}, { startAfter: new Date(Date.now() + pass.waitMs) });
    };
  },
});

/** Wakes the sender after a submission commits (the per-minute clock is the fallback). */
export async function wakePayPageSender(): Promise<void> {
  await sendJob(payPageSendJob, {});
  wakeWorkers(QUEUE);
}
