import "server-only";

import { and, eq, gte, lt, notInArray, sql } from "drizzle-orm";

import type { Role } from "@/lib/client/auth/roles";
import { formatMajor } from "@/lib/client/money";
import { addDays, dayOf, endOfDay, startOfDay } from "@/lib/client/time/zone";
import { queryRows, type Db } from "@/lib/db/client";
import { exceptions, notificationDigests, notifications, staff } from "@/lib/db/schema";
import { readDayBook } from "@/lib/reports/daily";

import type { DigestEmailProps } from "./emails/digest-email";
import { allPreferences, mergePreferences } from "./preferences";

// The daily digest's content and recipients (docs/architecture.md "Notifications"). Its day is the day before in the
// dashboard's time zone: at 08:00 Lagos it is yesterday's Lagos day, whatever the UTC date.

/** The day a digest sent at `now` covers: the day before `now`'s day in `timeZone`. */
export function digestDay(now: Date, timeZone: string): string {
  return addDays(dayOf(now, timeZone), -1);
}

/** "Friday, 27 November 2026". */
export function dayLabel(day: string): string {
  return new Intl.DateTimeFormat("en-GB", { weekday: "long", day: "numeric", month: "long", year: "numeric", timeZone: "UTC" }).format(
    new Date(`${day}T12:00:00Z`),
  );
}

/**
 * Everyone enabled who wants the digest: each gets one row for the day (a second sender's insert is a no-op). A person
 * who no longer gets it (the digest turned off, or the account disabled) keeps what was waiting for that day's digest
 * in the dashboard only, never "for the digest" for ever.
 */
export async function claimDigests(db: Db, day: string, timeZone: string): Promise<{ staffId: string; digestId: number }[]> {
  const [people, stored] = await Promise.all([db.select({ id: staff.id, role: staff.role }).from(staff).where(eq(staff.disabled, false)), allPreferences(db)]);
  const wanting = people.filter((p: { id: string; role: Role }) => mergePreferences(p.role, stored.get(p.id)).digest);
  if (wanting.length > 0)
    await db
      .insert(notificationDigests)
      .values(wanting.map((p) => ({ staffId: p.id, day })))
      .onConflictDoNothing({ target: [notificationDigests.staffId, notificationDigests.day] });
  const claimed = await db.select({ staffId: notificationDigests.staffId }).from(notificationDigests).where(eq(notificationDigests.day, day));
  await db
    .update(notifications)
    .set({ email: "none" })
    .where(
      and(
        eq(notifications.email, "digest"),
        gte(notifications.createdAt, startOfDay(day, timeZone)),
        lt(notifications.createdAt, endOfDay(day, timeZone)),
        ...(claimed.length > 0
          ? [
              notInArray(
                notifications.staffId,
                claimed.map((c) => c.staffId),
              ),
            ]
          : []),
      ),
    );
  const rows = await db
    .select({ staffId: notificationDigests.staffId, digestId: notificationDigests.id })
    .from(notificationDigests)
    .where(and(eq(notificationDigests.day, day), eq(notificationDigests.status, "queued")));
  return rows;
}

type DigestContent = Omit<DigestEmailProps, "businessName" | "url" | "preferencesUrl" | "items"> & { items: { title: string; link: string }[] };

/**
 * What the digest of `day` says to one person: that day's line of the day book, read by the day book's own function
 * (lib/reports/daily.ts), so its figures are the page's; collected is the settled amount after fees, as everywhere
 * (docs/decisions.md, "“Collected” is the settled amount after fees"). Then the open exceptions, the day's declines, its
 * top payers by what was collected from them, and the notifications kept for the digest.
 */
export async function digestContent(db: Db, staffId: string, day: string, timeZone: string): Promise<DigestContent> {
  const from = startOfDay(day, timeZone);
  const to = endOfDay(day, timeZone);
  const book = await readDayBook(db, day, day, timeZone);
  const entry = book.days[0];
  const [open] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(exceptions)
    .where(eq(exceptions.status, "open"));
  const top = await queryRows<{ name: string; tag: string; collected: string }>(
    db,
    sql`select max(customer_name) as name, coalesce(peer_tag, customer_tag) as tag, sum(settled_amount)::numeric(20,2)::text as collected
        from payments where received_at >= ${from.toISOString()}::timestamptz and received_at < ${to.toISOString()}::timestamptz
        group by coalesce(peer_tag, customer_tag) order by sum(settled_amount) desc, tag limit 5`,
  );
  const kept = await db
    .select({ title: notifications.title, link: notifications.link })
    .from(notifications)
    .where(and(eq(notifications.staffId, staffId), eq(notifications.email, "digest"), gte(notifications.createdAt, from), lt(notifications.createdAt, to)))
    .orderBy(notifications.createdAt, notifications.id)
    .limit(50);
  return {
    dayLabel: dayLabel(day),
    book: {
      asked: formatMajor("NGN", entry?.asked ?? "0"),
      paid: formatMajor("NGN", entry?.payments.gross ?? "0"),
      fees: formatMajor("NGN", entry?.payments.fees ?? "0"),
      settled: formatMajor("NGN", entry?.payments.settled ?? "0"),
      unexplained: entry?.unexplained == null ? null : formatMajor("NGN", entry.unexplained),
    },
    openExceptions: Number(open?.n ?? 0),
    declines: entry?.requests.declined ?? 0,
    topPayers: top.map((t) => ({ name: t.name, tag: t.tag, collected: formatMajor("NGN", t.collected) })),
    items: kept,
  };
}

/** After the digest went out: its row is sent, and the notifications it carried are marked e-mailed. */
export async function markDigestSent(db: Db, digestId: number, staffId: string, day: string, timeZone: string, attempt: number): Promise<void> {
  await db.transaction(async (tx) => {
    await tx
      .update(notificationDigests)
      .set({ status: "sent", attempts: attempt, error: null, sentAt: new Date() })
      .where(eq(notificationDigests.id, digestId));
    await tx
      .update(notifications)
      .set({ email: "sent", emailedAt: new Date() })
      .where(
        and(
          eq(notifications.staffId, staffId),
          eq(notifications.email, "digest"),
          gte(notifications.createdAt, startOfDay(day, timeZone)),
          lt(notifications.createdAt, endOfDay(day, timeZone)),
        ),
      );
  });
}

/**
 * A failed attempt: the row waits for the next one (queued, with why) or, after the last or a permanent refusal, is
 * failed; then the notifications it carried say so too, on the person's page, never "for the digest" for ever.
 */
export async function markDigestFailed(
  db: Db,
  digest: { digestId: number; staffId: string; day: string },
  timeZone: string,
  attempt: number,
  reason: string,
  last: boolean,
): Promise<void> {
  await db.transaction(async (tx) => {
    const [changed] = await tx
      .update(notificationDigests)
      .set({ status: last ? "failed" : "queued", attempts: attempt, error: reason })
      .where(and(eq(notificationDigests.id, digest.digestId), eq(notificationDigests.status, "queued")))
      .returning({ id: notificationDigests.id });
    if (!changed || !last) return;
    await tx
      .update(notifications)
      .set({ email: "failed", emailError: `The daily digest of ${dayLabel(digest.day)} could not be sent: ${reason}` })
      .where(
        and(
          eq(notifications.staffId, digest.staffId),
          eq(notifications.email, "digest"),
          gte(notifications.createdAt, startOfDay(digest.day, timeZone)),
          lt(notifications.createdAt, endOfDay(digest.day, timeZone)),
        ),
      );
  });
}
