import "server-only";

import { and, eq, inArray } from "drizzle-orm";
import { z } from "zod";

import { getConfig } from "@/lib/config";
import type { Db } from "@/lib/db/client";
import { notifications, staff } from "@/lib/db/schema";
import { defineJob } from "@/lib/jobs/define";
import { sendJobs, wakeWorkers } from "@/lib/jobs/engine";
import { derivedJobId } from "@/lib/jobs/ids";
import { MailError } from "@/lib/mail/errors";
import { sendMail, type OutgoingMail, type SentMail } from "@/lib/mail/transport";
import { safeErrorSummary } from "@/lib/log/safe-error";

import { renderNotificationEmail } from "./render";

// One notification's e-mail (docs/architecture.md "Notifications"): one job per (notification, attempt), each id
// derived, so a repeat queues nothing new. A transient SMTP failure queues the next attempt after the delays below;
// after the last, or on a permanent refusal (5xx), the notification says "e-mail failed" with the reason.

const QUEUE = "notify-email";

/** Waits before attempts 2–6 (1 min, 5 min, 30 min, 2 h, 6 h): a server down for minutes or hours still gets it. */
export const EMAIL_RETRY_DELAYS_MS = [60_000, 300_000, 1_800_000, 7_200_000, 21_600_000] as const;

const payload = z.object({
  notificationId: z.uuid(),
  attempt: z
    .number()
    .int()
    .min(1)
    .max(EMAIL_RETRY_DELAYS_MS.length + 1),
});

const jobId = (notificationId: string, attempt: number) => derivedJobId(QUEUE, `${notificationId}:${attempt}`);

/** Queues a notification's first e-mail attempt (once: its id is derived). */
export async function queueEmail(notificationId: string): Promise<void> {
  await queueEmails([notificationId]);
}

/** Queues the first e-mail attempt of each notification, in one statement (once each: the ids are derived). */
export async function queueEmails(notificationIds: readonly string[]): Promise<void> {
  await sendJobs(
    emailJob,
    notificationIds.map((notificationId) => ({ id: jobId(notificationId, 1), data: { notificationId, attempt: 1 } })),
  );
  wakeWorkers(QUEUE, notificationIds.length);
}

export const BUSINESS_NAME = "Fundboard";

/** The message's id, the same on every attempt: a mail server or client that sees it twice keeps one. */
export const messageIdOf = (notificationId: string) => `<notification-${notificationId}@fundboard>`;

/**
 * One attempt. Sent: the row says so. Refused for good, or the last attempt failed: the row says failed, with why.
 * Otherwise the next attempt is queued after its delay. Answers what it did (tests read it).
 */
export interface MailDeps {
  db: Db;
  send: (mail: OutgoingMail) => Promise<SentMail>;
  appUrl: string;
  timeZone: string;
}

type EmailRow = { notification: typeof notifications.$inferSelect; email: string; disabled: boolean };

/** The notifications (with their person's address) a batch of attempts needs, read in one statement. */
export async function emailRows(db: Db, notificationIds: readonly string[]): Promise<Map<string, EmailRow>> {
  if (notificationIds.length === 0) return new Map();
  const rows = await db
    .select({ notification: notifications, email: staff.email, disabled: staff.disabled })
    .from(notifications)
    .innerJoin(staff, eq(staff.id, notifications.staffId))
    .where(inArray(notifications.id, [...notificationIds]));
  return new Map(rows.map((r) => [r.notification.id, r]));
}

export async function attemptEmail(
  { db, send, appUrl }: MailDeps,
  notificationId: string,
  attempt: number,
  queueNext: (attempt: number, startAfter: Date) => Promise<void>,
  // Read beforehand for a whole batch (emailRows); read here when absent.
  loaded?: Map<string, EmailRow>,
  // Given, a sent e-mail is listed here for the batch to note at once (markSent); otherwise noted here.
  sent?: { id: string; attempt: number }[],
): Promise<"sent" | "retry" | "failed" | "skipped"> {
  const row = (loaded ?? (await emailRows(db, [notificationId]))).get(notificationId);
  if (!row || row.notification.email !== "queued") return "skipped";
  const n = row.notification;
  if (row.disabled) {
    await db.update(notifications).set({ email: "failed", emailError: "The account is disabled." }).where(eq(notifications.id, n.id));
    return "failed";
  }
  const rendered = await renderNotificationEmail({
    businessName: BUSINESS_NAME,
    title: n.title,
    lines: n.body.split("\n").filter(Boolean),
    url: new URL(n.link, appUrl).toString(),
    preferencesUrl: new URL("/account#notifications", appUrl).toString(),
  });
  try {
    await send({ to: row.email, subject: rendered.subject, html: rendered.html, text: rendered.text, headers: { "Message-ID": messageIdOf(n.id) } });
  } catch (error) {
    const reason = error instanceof MailError ? error.message : `The e-mail could not be sent (${safeErrorSummary(error)}).`;
    const last = attempt > EMAIL_RETRY_DELAYS_MS.length || (error instanceof MailError && error.permanent);
    await db
      .update(notifications)
      .set({ email: last ? "failed" : "queued", emailAttempts: attempt, emailError: reason })
      .where(and(eq(notifications.id, n.id), eq(notifications.email, "queued")));
    if (last) return "failed";
    await queueNext(attempt + 1, new Date(Date.now() + (EMAIL_RETRY_DELAYS_MS[attempt - 1] ?? 0)));
    return "retry";
  }
  if (sent) sent.push({ id: n.id, attempt });
  else await markSent(db, [{ id: n.id, attempt }]);
  return "sent";
}

/** Notes e-mails the server accepted, a statement per attempt number (a batch's are almost all first attempts). */
export async function markSent(db: Db, items: readonly { id: string; attempt: number }[]): Promise<void> {
  const byAttempt = new Map<number, string[]>();
  for (const { id, attempt } of items) byAttempt.set(attempt, [...(byAttempt.get(attempt) ?? []), id]);
  const at = new Date();
  for (const [attempt, ids] of byAttempt)
    await db.update(notifications).set({ email: "sent", emailAttempts: attempt, emailError: null, emailedAt: at }).where(inArray(notifications.id, ids));
}

export const emailJob = defineJob({
  queue: QUEUE,
  payload,
  policy: {
    policy: "standard",
    // The attempts above are jobs of their own; pg-boss's retry is only for an attempt lost with its process (it
    // expires after 2 min: an SMTP exchange is bounded by the transport's 30 s socket timeout).
    retryLimit: 2,
    retryDelay: 30,
    expireInSeconds: 120,
    retentionMinutes: 24 * 60,
  },
  // A burst (1,000 payments to 5 people) is taken 20 at a time by 6 workers on each instance (the engine's fetch and
  // completion, the rows' read and the sent ones' note are a statement each per batch), each batch's e-mails sent side
  // by side over the transport's pool (MAIL_CONNECTIONS); queued here wakes them at once, the 2 s poll is the fallback.
  work: { workers: 6, batchSize: 20, pollingIntervalSeconds: 2 },
  handler:
    ({ db, boss }) =>
    async (jobs) => {
      const deps: MailDeps = { db, send: sendMail, appUrl: getConfig().appUrl, timeZone: getConfig().timeZone };
      const loaded = await emailRows(
        db,
        jobs.map((job) => job.notificationId),
      );
      const sent: { id: string; attempt: number }[] = [];
      const outcomes = await Promise.allSettled(
        jobs.map((job) =>
          attemptEmail(
            deps,
            job.notificationId,
            job.attempt,
            async (next, startAfter) => {
              await boss.send(QUEUE, { notificationId: job.notificationId, attempt: next }, { id: jobId(job.notificationId, next), startAfter });
            },
            loaded,
            sent,
          ),
        ),
      );
      // What was sent is noted even when another of the batch failed (the batch is then retried: those are skipped).
      await markSent(db, sent);
      const failed = outcomes.find((o) => o.status === "rejected");
      if (failed) throw failed.reason;
    },
});
