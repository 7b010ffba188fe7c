import "server-only";

import { and, asc, count, desc, eq, ilike, inArray, isNull, lt, or, sql, type SQL } from "drizzle-orm";

import type { Db } from "@/lib/db/client";
import { likeContains } from "@/lib/db/like";
import { fundRequests, staff, type FundRequestRow } from "@/lib/db/schema";

import type { StoredKey } from "./keys";
import type { RequestListQuery } from "./schemas";
import { toRequestView, type FundRequestView } from "./view";

export const REQUEST_PAGE_SIZE = 25;

export async function findRequestByServiceId(db: Db, requestId: string): Promise<FundRequestRow | null> {
  const [row] = await db.select().from(fundRequests).where(eq(fundRequests.requestId, requestId)).limit(1);
  return row ?? null;
}

export async function findRequestByIdempotencyKey(db: Db, key: StoredKey): Promise<FundRequestRow | null> {
  const [row] = await db.select().from(fundRequests).where(eq(fundRequests.idempotencyKey, key)).limit(1);
  return row ?? null;
}

/** Records the request before the service is called; null when the idempotency key was used already. */
export async function insertSending(
  db: Db,
  values: { reference: string; idempotencyKey: StoredKey; tag: string; amount: string; description: string; createdBy: string | null },
): Promise<FundRequestRow | null> {
  const [row] = await db
    .insert(fundRequests)
    .values({ ...values, status: "sending" })
    .onConflictDoNothing({ target: fundRequests.idempotencyKey })
    .returning();
  return row ?? null;
}

export async function markPending(db: Db, id: string, requestId: string): Promise<FundRequestRow | null> {
  const [row] = await db
    .update(fundRequests)
    .set({ status: "pending", requestId, error: null, updatedAt: new Date() })
    .where(and(eq(fundRequests.id, id), eq(fundRequests.status, "sending")))
    .returning();
  return row ?? null;
}

/** A `sending` row whose call never left (the shared budget refused it): removed, freeing its idempotency key. */
export async function deleteSending(db: Db, id: string): Promise<void> {
  await db.delete(fundRequests).where(and(eq(fundRequests.id, id), eq(fundRequests.status, "sending")));
}

export async function markFailed(db: Db, id: string, error: string): Promise<FundRequestRow | null> {
  const [row] = await db
    .update(fundRequests)
    .set({ status: "failed", error, updatedAt: new Date() })
    .where(and(eq(fundRequests.id, id), eq(fundRequests.status, "sending")))
    .returning();
  return row ?? null;
}

/**
 * Requests left `sending` by a process that stopped mid-call (a create finishes within its timeout):
 * whether the service received them is unknown, so they are failed with a message that says so.
 */
export async function failAbandonedSending(db: Db, olderThan: Date): Promise<FundRequestRow[]> {
  return db
    .update(fundRequests)
    .set({
      status: "failed",
      error: "The dashboard stopped while sending this request, so whether the service received it is unknown. Check the service before sending again.",
      updatedAt: new Date(),
    })
    .where(and(eq(fundRequests.status, "sending"), lt(fundRequests.createdAt, olderThan)))
    .returning();
}

export interface ServiceState {
  status: "pending" | "accepted" | "declined";
  requestedBy: { name: string; tag: string };
  requestedSentTo: { name: string; tag: string };
  serviceCreatedAt: Date | null;
  serviceUpdatedAt: Date | null;
}

/**
 * Applies what the service says. Status only moves forward (pending → accepted/declined): the
 * transition is one conditional UPDATE, so concurrent refreshes and deliveries cannot move it back.
 * Returns the row and whether the status changed.
 */
export async function applyServiceState(db: Db, requestId: string, s: ServiceState): Promise<{ row: FundRequestRow | null; changed: boolean }> {
  const now = new Date();
  let changed = false;
  if (s.status !== "pending") {
    const moved = await db
      .update(fundRequests)
      .set({ status: s.status, serviceUpdatedAt: s.serviceUpdatedAt, updatedAt: now })
      .where(and(eq(fundRequests.requestId, requestId), inArray(fundRequests.status, ["pending", "sending"])))
      .returning({ id: fundRequests.id });
    changed = moved.length > 0;
  }
  const [row] = await db
    .update(fundRequests)
    .set({
      requestedBy: s.requestedBy,
      requestedSentTo: s.requestedSentTo,
      serviceCreatedAt: s.serviceCreatedAt,
      lastCheckedAt: now,
    })
    .where(eq(fundRequests.requestId, requestId))
    .returning();
  return { row: row ?? null, changed };
}

export async function touchChecked(db: Db, id: string): Promise<void> {
  await db.update(fundRequests).set({ lastCheckedAt: new Date() }).where(eq(fundRequests.id, id));
}

/** Pending requests due a check, least recently checked first. */
export async function duePending(db: Db, limit: number, now: Date): Promise<FundRequestRow[]> {
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
  return db
    .select()
    .from(fundRequests)
    .where(and(eq(fundRequests.status, "pending"), sql`${fundRequests.requestId} is not null`, due))
    .orderBy(sql`${fundRequests.lastCheckedAt} asc nulls first`, asc(fundRequests.createdAt))
    .limit(limit);
}

export async function listRequests(db: Db, query: RequestListQuery, pageSize = REQUEST_PAGE_SIZE): Promise<{ items: FundRequestView[]; total: number }> {
  const where: SQL[] = [];
  if (query.status) where.push(eq(fundRequests.status, query.status));
  if (query.tag) where.push(ilike(fundRequests.tag, likeContains(query.tag)));
  const condition = where.length ? and(...where) : undefined;
  const [rows, [totalRow]] = await Promise.all([
    db
      .select({ request: fundRequests, createdByName: staff.name })
      .from(fundRequests)
      .leftJoin(staff, eq(staff.id, fundRequests.createdBy))
      .where(condition)
      .orderBy(desc(fundRequests.createdAt), desc(fundRequests.id))
      .limit(pageSize)
      .offset((query.page - 1) * pageSize),
    db.select({ n: count() }).from(fundRequests).where(condition),
  ]);
  return { items: rows.map((r) => toRequestView(r.request, r.createdByName)), total: totalRow?.n ?? 0 };
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
