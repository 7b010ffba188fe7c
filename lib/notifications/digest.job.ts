import "server-only";

import { z } from "zod";

import { getConfig } from "@/lib/config";
import { defineJob } from "@/lib/jobs/define";

import { claimDigests, digestDay } from "./digest";
import { DIGEST_EMAIL_QUEUE, digestJobId } from "./digest-email.job";

// The daily digest's clock (docs/architecture.md "Notifications"): at 08:00 in TIMEZONE, one pg-boss schedule for
// every instance (a schedule is kept per queue, so several instances make it once). Each run claims one digest row per
// person for yesterday (unique per person and day) and queues its e-mail under a derived id: a second run that day
// (a clock's repeat, a manual run) sends nothing twice.

export const digestJob = defineJob({
  queue: "notify-digest",
  payload: z.object({}),
  // One run a day; a run lost with its process is retried twice within minutes, its claims making it safe.
  policy: { policy: "stately", retryLimit: 2, retryDelay: 60, expireInSeconds: 300, retentionMinutes: 7 * 24 * 60 },
  work: { workers: 1, batchSize: 1, pollingIntervalSeconds: 5 },
  schedule: "0 8 * * *",
  scheduleTimeZone: () => getConfig().timeZone,
  handler:
    ({ db, boss }) =>
    async () => {
      const { timeZone } = getConfig();
      const day = digestDay(new Date(), timeZone);
      for (const d of await claimDigests(db, day, timeZone))
        await boss.send(DIGEST_EMAIL_QUEUE, { digestId: d.digestId, attempt: 1 }, { id: digestJobId(d.digestId, 1) });
    },
});
