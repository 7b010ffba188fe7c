import "server-only";

import { and, desc, eq, gte, inArray, sql } from "drizzle-orm";

import type { BusinessEvent } from "@/lib/client/events/catalogue";
import type { DeliveryStatus, DeliveryView } from "@/lib/client/outbound/schemas";
import { queryRows, type Db } from "@/lib/db/client";
import { outboundDeliveries, type OutboundDeliveryRow } from "@/lib/db/schema";

import { deliveryBody } from "./body";

// One delivery per (event, endpoint) (docs/architecture.md "Outgoing webhooks"): the one writer of outbound_deliveries.
// Its body is made once, at most 64 KiB (body.ts), and every attempt of every round sends those bytes.

export const DELIVERY_PAGE_SIZE = 25;

export function toDeliveryView(row: OutboundDeliveryRow): DeliveryView {
  return {
    id: row.id,
    endpointId: row.endpointId,
    eventId: row.eventId,
    eventType: row.eventType,
    status: row.status,
    attempts: row.attempts,
    lastStatusCode: row.lastStatusCode,
    lastResponse: row.lastResponse,
    lastError: row.lastError,
    lastAttemptAt: row.lastAttemptAt?.toISOString() ?? null,
    nextAttemptAt: row.nextAttemptAt?.toISOString() ?? null,
    deliveredAt: row.deliveredAt?.toISOString() ?? null,
    createdAt: row.createdAt.toISOString(),
  };
}

/** The event's delivery to the endpoint, made once (the unique pair): a repeat answers the one made first. */
export async function ensureDelivery(db: Db, endpointId: string, event: BusinessEvent): Promise<OutboundDeliveryRow> {
  const [row] = await ensureDeliveries(db, [{ endpointId, event }]);
  if (!row) throw new Error("delivery vanished");
  return row;
}

const pairKey = (eventId: string, endpointId: string) => `${eventId}:${endpointId}`;

/**
 * Each (endpoint, event)'s delivery, made once (the unique pair) in one insert; pairs made before (a repeated job) are
 * read back in one select. Answers one row a distinct pair.
 */
export async function ensureDeliveries(db: Db, items: readonly { endpointId: string; event: BusinessEvent }[]): Promise<OutboundDeliveryRow[]> {
  const unique = [...new Map(items.map((i) => [pairKey(i.event.id, i.endpointId), i])).values()];
  if (unique.length === 0) return [];
  const now = new Date();
  const made = await db
    .insert(outboundDeliveries)
    .values(unique.map(({ endpointId, event }) => ({ endpointId, eventId: event.id, eventType: event.type, body: deliveryBody(event), nextAttemptAt: now })))
    .onConflictDoNothing({ target: [outboundDeliveries.eventId, outboundDeliveries.endpointId] })
    .returning();
  const have = new Set(made.map((r) => pairKey(r.eventId, r.endpointId)));
  const missing = new Set(unique.map((i) => pairKey(i.event.id, i.endpointId)).filter((k) => !have.has(k)));
  if (missing.size === 0) return made;
  const found = await db
    .select()
    .from(outboundDeliveries)
    .where(
      and(
        inArray(outboundDeliveries.eventId, [...new Set(unique.map((i) => i.event.id))]),
        inArray(outboundDeliveries.endpointId, [...new Set(unique.map((i) => i.endpointId))]),
      ),
    );
  return [...made, ...found.filter((r) => missing.has(pairKey(r.eventId, r.endpointId)))];
}

export async function findDelivery(db: Db, id: string): Promise<OutboundDeliveryRow | null> {
  const [row] = await db.select().from(outboundDeliveries).where(eq(outboundDeliveries.id, id)).limit(1);
  return row ?? null;
}

export interface AttemptRecord {
  attempt: number;
  at: Date;
  statusCode: number | null;
  response: string | null;
  error: string | null;
  /** delivered; failed for good; or pending with its next attempt's time. */
  outcome: { status: "delivered" } | { status: "failed" } | { status: "pending"; next: Date };
}

/**
 * A batch's attempts recorded in one statement (a burst is hundreds of attempts a second, and on the embedded database
 * each statement waits its turn), each only on its own round while pending (a resend since started another). Answers
 * the ids that were recorded.
 */
export async function recordAttempts(db: Db, items: readonly { id: string; round: number; record: AttemptRecord }[]): Promise<Set<string>> {
  if (items.length === 0) return new Set();
  const values = items.map(({ id, round, record: r }) => {
    const next = r.outcome.status === "pending" ? r.outcome.next.toISOString() : null;
    const delivered = r.outcome.status === "delivered" ? r.at.toISOString() : null;
    return sql`(${id}::uuid, ${round}::int, ${r.at.toISOString()}::timestamptz, ${r.statusCode}::int, ${r.response}::text, ${r.error}::text, ${r.outcome.status}::text, ${next}::timestamptz, ${delivered}::timestamptz)`;
  });
  const rows = await queryRows<{ id: string }>(
    db,
    sql`update ${outboundDeliveries} as d
        set attempts = d.attempts + 1, last_attempt_at = v.at, last_status_code = v.status_code, last_response = v.response,
            last_error = v.error, status = v.status, next_attempt_at = v.next_at, delivered_at = v.delivered_at
        from (values ${sql.join(values, sql`, `)}) as v(id, round, at, status_code, response, error, status, next_at, delivered_at)
        where d.id = v.id and d.round = v.round and d.status = 'pending'
        returning d.id`,
  );
  return new Set(rows.map((r) => r.id));
}

/** Ends a pending delivery without an attempt (its endpoint was turned off or deleted). */
export async function giveUp(db: Db, id: string, round: number, why: string): Promise<void> {
  await db
    .update(outboundDeliveries)
    .set({ status: "failed", lastError: why, nextAttemptAt: null })
    .where(and(eq(outboundDeliveries.id, id), eq(outboundDeliveries.round, round), eq(outboundDeliveries.status, "pending")));
}

/** A new round of attempts for the same body (same webhook-id): answers the round, or null when it is pending now. */
export async function startRound(db: Db, id: string): Promise<OutboundDeliveryRow | null> {
  const [row] = await db
    .update(outboundDeliveries)
    .set({ round: sql`${outboundDeliveries.round} + 1`, status: "pending", nextAttemptAt: new Date(), deliveredAt: null })
    .where(and(eq(outboundDeliveries.id, id), sql`${outboundDeliveries.status} <> 'pending'`))
    .returning();
  return row ?? null;
}

/** The endpoint's failed deliveries made since `since` (recover). */
export async function failedSince(db: Db, endpointId: string, since: Date): Promise<OutboundDeliveryRow[]> {
  return db
    .select()
    .from(outboundDeliveries)
    .where(and(eq(outboundDeliveries.endpointId, endpointId), eq(outboundDeliveries.status, "failed"), gte(outboundDeliveries.createdAt, since)));
}

export async function readDeliveryPage(
  db: Db,
  endpointId: string,
  query: { status: DeliveryStatus | null; page: number },
): Promise<{ items: DeliveryView[]; page: number; pageSize: number; total: number }> {
  const where = query.status
    ? and(eq(outboundDeliveries.endpointId, endpointId), eq(outboundDeliveries.status, query.status))
    : eq(outboundDeliveries.endpointId, endpointId);
  const [rows, [count]] = await Promise.all([
    db
      .select()
      .from(outboundDeliveries)
      .where(where)
      .orderBy(desc(outboundDeliveries.createdAt), desc(outboundDeliveries.id))
      .limit(DELIVERY_PAGE_SIZE)
      .offset((query.page - 1) * DELIVERY_PAGE_SIZE),
    db
      .select({ n: sql<number>`count(*)::int` })
      .from(outboundDeliveries)
      .where(where),
  ]);
  return { items: rows.map(toDeliveryView), page: query.page, pageSize: DELIVERY_PAGE_SIZE, total: Number(count?.n ?? 0) };
}

/** Deliveries are kept 30 days (docs/decisions.md "Outgoing webhooks"). */
export const DELIVERY_DAYS = 30;

export async function pruneDeliveries(db: Db, now = new Date()): Promise<number> {
  const cutoff = new Date(now.getTime() - DELIVERY_DAYS * 86_400_000);
  const rows = await db
    .delete(outboundDeliveries)
    .where(sql`${outboundDeliveries.createdAt} < ${cutoff.toISOString()}`)
    .returning({ id: outboundDeliveries.id });
  return rows.length;
}
