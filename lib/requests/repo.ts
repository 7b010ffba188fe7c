import "server-only";

import { and, asc, eq, isNull, lt, or, sql } from "drizzle-orm";

import type { Db } from "@/lib/db/client";
import { campaignRows, campaigns, fundRequests, staff, type FundRequestRow } from "@/lib/db/schema";

import type { StoredKey } from "./keys";

export async function findRequestByServiceId(db: Db, requestId: string): Promise<FundRequestRow | null> {
  const [row] = await db.select().from(fundRequests).where(eq(fundRequests.requestId, requestId)).limit(1);
  return row ?? null;
}

export async function findRequestByIdempotencyKey(db: Db, key: StoredKey): Promise<FundRequestRow | null> {
  const [row] = await db.select().from(fundRequests).where(eq(fundRequests.idempotencyKey, key)).limit(1);
  return row ?? null;
}

/**
 * Claims the next status check of one pending request for the caller: true when nobody (a viewer on any
 * instance, the reconciler) checked it within `freshMs`. The claim is one conditional update, so across
 * instances one caller wins each window and the rest read the row.
 */
export async function claimStatusCheck(db: Db, id: string, freshMs: number): Promise<boolean> {
  const since = new Date(Date.now() - freshMs);
  const won = await db
    .update(fundRequests)
    .set({ lastCheckedAt: new Date() })
    .where(and(eq(fundRequests.id, id), or(isNull(fundRequests.lastCheckedAt), lt(fundRequests.lastCheckedAt, since))))
    .returning({ id: fundRequests.id });
  return won.length > 0;
}

export async function touchChecked(db: Db, id: string): Promise<void> {
  await db.update(fundRequests).set({ lastCheckedAt: new Date() }).where(eq(fundRequests.id, id));
}

/** Pending requests due a check at `now`. */
function dueForCheck(now: Date) {
  // Young requests are checked often, old ones rarely: most answers come in the first minutes, and
  // a backlog of old unanswered requests must not eat the 30 calls a minute the young ones need.
  const ago = (ms: number) => new Date(now.getTime() - ms);
  const due = or(
    isNull(fundRequests.lastCheckedAt),
    and(sql`${fundRequests.createdAt} > ${ago(2 * 60_000)}`, lt(fundRequests.lastCheckedAt, ago(2_000))),
    and(sql`${fundRequests.createdAt} > ${ago(30 * 60_000)}`, lt(fundRequests.lastCheckedAt, ago(15_000))),
    and(sql`${fundRequests.createdAt} > ${ago(6 * 60 * 60_000)}`, lt(fundRequests.lastCheckedAt, ago(2 * 60_000))),
    lt(fundRequests.lastCheckedAt, ago(15 * 60_000)),
  );
  return and(eq(fundRequests.status, "pending"), sql`${fundRequests.requestId} is not null`, due);
}

/** Pending requests due a check, least recently checked first. */
export async function duePending(db: Db, limit: number, now: Date): Promise<FundRequestRow[]> {
  return db
    .select()
    .from(fundRequests)
    .where(dueForCheck(now))
    .orderBy(sql`${fundRequests.lastCheckedAt} asc nulls first`, asc(fundRequests.createdAt))
    .limit(limit);
}

/**
 * Status checks owed at `now` under a pace of `perMinute`: the due pending requests, up to what the pace still
 * allows in the last 60 s and the last 10 s given the pending requests already checked in them (by anyone).
 */
export async function statusChecksOwed(db: Db, perMinute: number, now: Date): Promise<{ window: number; slice: number }> {
  const ago = (ms: number) => new Date(now.getTime() - ms);
  const [due] = await db.select({ n: sql<number>`count(*)::int` }).from(
    db
      .select({ one: sql`1` })
      .from(fundRequests)
      .where(dueForCheck(now))
      .limit(perMinute)
      .as("due"),
  );
  if (!due || due.n === 0) return { window: 0, slice: 0 };
  const [checked] = await db
    .select({
      window: sql<number>`count(*)::int`,
      slice: sql<number>`(count(*) filter (where ${fundRequests.lastCheckedAt} > ${ago(10_000)}))::int`,
    })
    .from(fundRequests)
    .where(and(eq(fundRequests.status, "pending"), sql`${fundRequests.lastCheckedAt} > ${ago(60_000)}`));
  const perSlice = Math.ceil(perMinute / 6);
  return {
    window: Math.min(due.n, Math.max(0, perMinute - (checked?.window ?? 0))),
    slice: Math.min(due.n, Math.max(0, perSlice - (checked?.slice ?? 0))),
  };
}

export async function findRequestByReference(db: Db, reference: string): Promise<FundRequestRow | null> {
  const [row] = await db.select().from(fundRequests).where(eq(fundRequests.reference, reference)).limit(1);
  return row ?? null;
}

export async function createdByName(db: Db, staffId: string | null): Promise<string | null> {
  if (!staffId) return null;
  const [row] = await db.select({ name: staff.name }).from(staff).where(eq(staff.id, staffId)).limit(1);
  return row?.name ?? null;
}

/** The campaign whose row made the request with this reference, if one did. */
export async function campaignOfRequest(db: Db, reference: string): Promise<{ id: string; name: string; startedBy: string | null } | null> {
  const [row] = await db
    .select({ id: campaigns.id, name: campaigns.name, startedBy: staff.name })
    .from(campaignRows)
    .innerJoin(campaigns, eq(campaigns.id, campaignRows.campaignId))
    .innerJoin(fundRequests, eq(fundRequests.id, campaignRows.fundRequestId))
    // Who started the campaign (its sender): the person behind every request it made.
    .leftJoin(staff, eq(staff.id, campaigns.senderId))
    .where(eq(fundRequests.reference, reference))
    .limit(1);
  return row ?? null;
}
