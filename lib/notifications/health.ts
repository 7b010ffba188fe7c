import "server-only";

import { and, eq, gt, gte, inArray, isNotNull, sql } from "drizzle-orm";

import { addDays, dayOf, wallTime } from "@/lib/client/time/zone";
import { getConfig } from "@/lib/config";
import type { Db } from "@/lib/db/client";
import { notificationDigests, notifications } from "@/lib/db/schema";
import { mailEnabled } from "@/lib/mail/transport";

// E-mail as `/api/health` tells admins (docs/architecture.md "Notifications"), read from the database so every
// instance says the same. "Failing" follows the last attempts, not only the e-mails given up on (that takes the whole
// retry schedule, about 8.6 hours): an e-mail or digest whose last attempt failed (waiting for its retry, or failed for
// good) while the mail server has accepted nothing since it was made, nor in the last QUIET_MS. One accepted e-mail
// says the server works again.

/** With a failed attempt waiting, this long without any e-mail accepted is failing, whenever the failure was. */
export const QUIET_MS = 15 * 60_000;

/** Failures of e-mails made this long ago or less count (every attempt of one is over within about 8.6 hours). */
const WINDOW_MS = 24 * 60 * 60_000;

/** The daily digest of a day is made at 08:00 the next day in TIMEZONE (digest.job.ts). */
const DIGEST_MINUTES = 8 * 60;

export interface MailHealth {
  /** "off": no SMTP_URL in live mode; "failing": recent attempts fail and the server accepted nothing since; else "ok". */
  status: "ok" | "off" | "failing";
  /** E-mails and digests made in the last 24 h whose attempts failed for good (each person's page says why). */
  failedLastDay: number;
  /** E-mails and digests waiting to be tried again after a failed attempt. */
  retrying: number;
  /** When the mail server last accepted an e-mail or digest (of the last day or so), or null. */
  lastSentAt: string | null;
  message: string;
}

const latest = (...dates: (Date | null)[]): Date | null => dates.reduce<Date | null>((a, b) => (b === null ? a : a === null || b > a ? b : a), null);

export async function mailHealth(db: Db, now = new Date(), enabled = mailEnabled(), timeZone = getConfig().timeZone): Promise<MailHealth> {
  if (!enabled)
    return { status: "off", failedLastDay: 0, retrying: 0, lastSentAt: null, message: "E-mail is off: set SMTP_URL to send notifications by e-mail." };
  const since = new Date(now.getTime() - WINDOW_MS);
  // An e-mail accepted since `since` was made at most a retry schedule before it; a digest the day before it was made.
  const sentSince = new Date(since.getTime() - WINDOW_MS);
  const firstDay = addDays(dayOf(since, timeZone), -2);
  const [[told], [sentMail], [sentDigest], digests] = await Promise.all([
    // A failed SMTP attempt leaves its reason (a success clears it); an account disabled fails with no attempt.
    db
      .select({
        retrying: sql<number>`(count(*) filter (where ${notifications.email} = 'queued'))::int`,
        failed: sql<number>`(count(*) filter (where ${notifications.email} = 'failed'))::int`,
        madeAt: sql<Date | null>`max(${notifications.createdAt})`.mapWith(notifications.createdAt),
      })
      .from(notifications)
      .where(
        and(
          inArray(notifications.email, ["queued", "failed"]),
          isNotNull(notifications.emailError),
          gt(notifications.emailAttempts, 0),
          gt(notifications.createdAt, since),
        ),
      ),
    db
      .select({ at: sql<Date | null>`max(${notifications.emailedAt})`.mapWith(notifications.emailedAt) })
      .from(notifications)
      .where(and(eq(notifications.email, "sent"), gt(notifications.createdAt, sentSince))),
    db
      .select({ at: sql<Date | null>`max(${notificationDigests.sentAt})`.mapWith(notificationDigests.sentAt) })
      .from(notificationDigests)
      .where(and(eq(notificationDigests.status, "sent"), gte(notificationDigests.day, firstDay))),
    db
      .select({ day: notificationDigests.day, status: notificationDigests.status })
      .from(notificationDigests)
      .where(
        and(
          inArray(notificationDigests.status, ["queued", "failed"]),
          isNotNull(notificationDigests.error),
          gt(notificationDigests.attempts, 0),
          gte(notificationDigests.day, firstDay),
        ),
      ),
  ]);
  const failedDigests = digests.map((d) => ({ ...d, madeAt: wallTime(addDays(d.day, 1), DIGEST_MINUTES, timeZone) })).filter((d) => d.madeAt > since);
  const retrying = Number(told?.retrying ?? 0) + failedDigests.filter((d) => d.status === "queued").length;
  const failedLastDay = Number(told?.failed ?? 0) + failedDigests.filter((d) => d.status === "failed").length;
  const lastSent = latest(sentMail?.at ?? null, sentDigest?.at ?? null);
  const lastFailedMade = latest(told?.madeAt ?? null, ...failedDigests.map((d) => d.madeAt));
  const quietSince = new Date(now.getTime() - QUIET_MS);
  // Failing: nothing accepted since the latest failing one was made, nor in the last QUIET_MS.
  const failing = lastFailedMade !== null && (lastSent === null || lastSent <= lastFailedMade || lastSent < quietSince);
  const counts = { failedLastDay, retrying, lastSentAt: lastSent?.toISOString() ?? null };
  if (failing)
    return {
      status: "failing",
      ...counts,
      message: `E-mail is failing: the last attempt of ${retrying + failedLastDay} e-mails failed (${retrying} wait to be tried again) and the mail server has accepted none since. Each person's notifications page says why.`,
    };
  return {
    status: "ok",
    ...counts,
    message:
      failedLastDay > 0 ? `E-mail is on; ${failedLastDay} e-mails failed in the last 24 hours (each person's notifications page says why).` : "E-mail is on.",
  };
}
