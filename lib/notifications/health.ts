import "server-only";

import { and, eq, gt, sql } from "drizzle-orm";

import type { Db } from "@/lib/db/client";
import { notificationDigests, notifications } from "@/lib/db/schema";
import { mailEnabled } from "@/lib/mail/transport";

/** E-mail as `/api/health` tells admins (docs/architecture.md "Notifications"): off, or e-mails that failed in the last day. */
export interface MailHealth {
  /** "off": no SMTP_URL in live mode; "failing": some e-mail of the last 24 h failed for good; else "ok". */
  status: "ok" | "off" | "failing";
  failedLastDay: number;
  message: string;
}

export async function mailHealth(db: Db, now = new Date()): Promise<MailHealth> {
  if (!mailEnabled()) return { status: "off", failedLastDay: 0, message: "E-mail is off: set SMTP_URL to send notifications by e-mail." };
  const since = new Date(now.getTime() - 86_400_000);
  const [told] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(notifications)
    .where(and(eq(notifications.email, "failed"), gt(notifications.createdAt, since)));
  const [digests] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(notificationDigests)
    .where(and(eq(notificationDigests.status, "failed"), gt(notificationDigests.sentAt, since)));
  const failed = Number(told?.n ?? 0) + Number(digests?.n ?? 0);
  return failed > 0
    ? { status: "failing", failedLastDay: failed, message: `${failed} e-mails failed in the last 24 hours; each person's notifications page says why.` }
    : { status: "ok", failedLastDay: 0, message: "E-mail is on." };
}
