import "server-only";

import { and, desc, eq, gte, inArray, isNull, sql } from "drizzle-orm";

import { FAILED_DIGEST_DAYS, type FailedDigestView, type NotificationPage, type NotificationView } from "@/lib/client/notifications/view";
import { addDays } from "@/lib/client/time/zone";
import type { Db } from "@/lib/db/client";
import { notificationDigests, notifications, type NotificationRow } from "@/lib/db/schema";

import { dayLabel } from "./digest";

// A person's notifications as the bell, the page and `GET /api/notifications` read them (docs/architecture.md
// "Notifications"), with their daily digests that failed: a digest that could not be sent is shown, never silent.

export const NOTIFICATION_PAGE_SIZE = 25;

export function toNotificationView(row: NotificationRow): NotificationView {
  return {
    id: row.id,
    type: row.type,
    title: row.title,
    body: row.body,
    link: row.link,
    createdAt: row.createdAt.toISOString(),
    read: row.readAt !== null,
    email: row.email,
    emailError: row.email === "failed" ? row.emailError : null,
  };
}

export async function unreadCount(db: Db, staffId: string): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(notifications)
    .where(and(eq(notifications.staffId, staffId), isNull(notifications.readAt)));
  return Number(row?.n ?? 0);
}

/** The person's digests of the last FAILED_DIGEST_DAYS days (by the day they covered) that failed, newest first. */
export async function failedDigests(db: Db, staffId: string, now = new Date()): Promise<FailedDigestView[]> {
  const rows = await db
    .select({ day: notificationDigests.day, error: notificationDigests.error })
    .from(notificationDigests)
    .where(
      and(
        eq(notificationDigests.staffId, staffId),
        gte(notificationDigests.day, addDays(now.toISOString().slice(0, 10), -FAILED_DIGEST_DAYS)),
        eq(notificationDigests.status, "failed"),
      ),
    )
    .orderBy(desc(notificationDigests.day));
  return rows.map((r) => ({
    day: r.day,
    dayLabel: dayLabel(r.day),
    error: r.error ?? "The mail server did not take it.",
    link: `/reports?from=${r.day}&to=${r.day}`,
  }));
}

export async function readNotificationPage(db: Db, staffId: string, query: { unread: boolean; page: number }, now = new Date()): Promise<NotificationPage> {
  const where = query.unread ? and(eq(notifications.staffId, staffId), isNull(notifications.readAt)) : eq(notifications.staffId, staffId);
  const [rows, [count], unread, digests] = await Promise.all([
    db
      .select()
      .from(notifications)
      .where(where)
      .orderBy(desc(notifications.createdAt), desc(notifications.id))
      .limit(NOTIFICATION_PAGE_SIZE)
      .offset((query.page - 1) * NOTIFICATION_PAGE_SIZE),
    db
      .select({ n: sql<number>`count(*)::int` })
      .from(notifications)
      .where(where),
    unreadCount(db, staffId),
    failedDigests(db, staffId, now),
  ]);
  return {
    items: rows.map(toNotificationView),
    failedDigests: digests,
    page: query.page,
    pageSize: NOTIFICATION_PAGE_SIZE,
    total: Number(count?.n ?? 0),
    unread,
  };
}

/** Marks the person's own notifications read (ids of someone else's are ignored); answers how many changed. */
export async function markRead(db: Db, staffId: string, which: { ids: readonly string[] } | { all: true }, now = new Date()): Promise<number> {
  const mine = and(eq(notifications.staffId, staffId), isNull(notifications.readAt));
  const where = "all" in which ? mine : and(mine, inArray(notifications.id, [...which.ids]));
  if (!("all" in which) && which.ids.length === 0) return 0;
  const rows = await db.update(notifications).set({ readAt: now }).where(where).returning({ id: notifications.id });
  return rows.length;
}
