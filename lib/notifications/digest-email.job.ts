import "server-only";

import { eq } from "drizzle-orm";
import { z } from "zod";

import { getConfig } from "@/lib/config";
import { notificationDigests, staff } from "@/lib/db/schema";
import { defineJob } from "@/lib/jobs/define";
import { derivedJobId } from "@/lib/jobs/ids";
import { safeErrorSummary } from "@/lib/log/safe-error";
import { MailError } from "@/lib/mail/errors";
import { sendMail } from "@/lib/mail/transport";

import { digestContent, markDigestFailed, markDigestSent } from "./digest";
import { BUSINESS_NAME, EMAIL_RETRY_DELAYS_MS, type MailDeps } from "./email.job";
import { renderDigestEmail } from "./render";

// One person's daily digest (docs/architecture.md "Notifications"): one job per (digest, attempt), ids derived, retried
// on the notifications' delays; the row says sent or failed, and a failed one shows on the person's notifications page.

export const DIGEST_EMAIL_QUEUE = "notify-digest-email";

const payload = z.object({
  digestId: z.number().int().positive(),
  attempt: z
    .number()
    .int()
    .min(1)
    .max(EMAIL_RETRY_DELAYS_MS.length + 1),
});

export const digestJobId = (digestId: number, attempt: number) => derivedJobId(DIGEST_EMAIL_QUEUE, `${digestId}:${attempt}`);

export async function attemptDigest(
  { db, send, appUrl, timeZone }: MailDeps,
  digestId: number,
  attempt: number,
  queueNext: (attempt: number, startAfter: Date) => Promise<void>,
): Promise<"sent" | "retry" | "failed" | "skipped"> {
  const [row] = await db
    .select({ digest: notificationDigests, email: staff.email })
    .from(notificationDigests)
    .innerJoin(staff, eq(staff.id, notificationDigests.staffId))
    .where(eq(notificationDigests.id, digestId))
    .limit(1);
  if (!row || row.digest.status !== "queued") return "skipped";
  const { day, staffId } = row.digest;
  const content = await digestContent(db, staffId, day, timeZone);
  const rendered = await renderDigestEmail({
    ...content,
    items: content.items.map((i) => ({ title: i.title, url: new URL(i.link, appUrl).toString() })),
    businessName: BUSINESS_NAME,
    url: new URL(`/reports?from=${day}&to=${day}`, appUrl).toString(),
    preferencesUrl: new URL("/account#notifications", appUrl).toString(),
  });
  try {
    await send({
      to: row.email,
      subject: rendered.subject,
      html: rendered.html,
      text: rendered.text,
      headers: { "Message-ID": `<digest-${digestId}@fundboard>` },
    });
  } catch (error: unknown) {
    const reason = error instanceof MailError ? error.message : `The digest could not be sent (${safeErrorSummary(error)}).`;
    const last = attempt > EMAIL_RETRY_DELAYS_MS.length || (error instanceof MailError && error.permanent);
    await markDigestFailed(db, { digestId, staffId, day }, timeZone, attempt, reason, last);
    if (last) return "failed";
    await queueNext(attempt + 1, new Date(Date.now() + (EMAIL_RETRY_DELAYS_MS[attempt - 1] ?? 0)));
    return "retry";
  }
  await markDigestSent(db, digestId, staffId, day, timeZone, attempt);
  return "sent";
}

export const digestEmailJob = defineJob({
  queue: DIGEST_EMAIL_QUEUE,
  payload,
  // As the notifications' e-mails (./email.job.ts): attempts are jobs of their own; pg-boss retries a lost one.
  policy: { policy: "standard", retryLimit: 2, retryDelay: 30, expireInSeconds: 120, retentionMinutes: 24 * 60 },
  work: { workers: 2, batchSize: 1, pollingIntervalSeconds: 2 },
  handler:
    ({ db, boss }) =>
    async (jobs) => {
      const deps: MailDeps = { db, send: sendMail, appUrl: getConfig().appUrl, timeZone: getConfig().timeZone };
      for (const job of jobs)
        await attemptDigest(deps, job.digestId, job.attempt, async (next, startAfter) => {
          await boss.send(DIGEST_EMAIL_QUEUE, { digestId: job.digestId, attempt: next }, { id: digestJobId(job.digestId, next), startAfter });
        });
    },
});
