import "server-only";

import { and, asc, eq, gt, lt, sql } from "drizzle-orm";

import type { Actor } from "@/lib/actors/actor";
import { authorize } from "@/lib/actors/permissions";
import type { BusinessEvent, EventType } from "@/lib/client/events/catalogue";
import type { Db } from "@/lib/db/client";
import { events } from "@/lib/db/schema";

// The event log as the API reads it (docs/architecture.md "The API"): oldest first after a cursor (an event id).
// Ids sort by the millisecond an event was made, not when its transaction committed, so the log holds back the
// last SETTLE_SECONDS: an event made just before another but committed just after cannot be skipped by a cursor.

const SETTLE_SECONDS = 2;

export interface EventLogQuery {
  after?: string;
  type?: EventType;
  limit: number;
}

export interface EventLogPage {
  items: BusinessEvent<Record<string, unknown>>[];
  /** The cursor for the next call (the last item's id), or the one given when nothing new was found. */
  next: string | null;
  hasMore: boolean;
}

export async function readEventLog(db: Db, actor: Actor, query: EventLogQuery): Promise<EventLogPage> {
  authorize(actor, "events.read");
  const rows = await db
    .select({ id: events.id, type: events.type, createdAt: events.createdAt, data: events.data })
    .from(events)
    .where(
      and(
        query.after ? gt(events.id, query.after) : undefined,
        query.type ? eq(events.type, query.type) : undefined,
        lt(events.createdAt, sql`now() - make_interval(secs => ${SETTLE_SECONDS})`),
      ),
    )
    .orderBy(asc(events.id))
    .limit(query.limit + 1);
  const items = rows.slice(0, query.limit).map((r) => ({ id: r.id, type: r.type as EventType, createdAt: r.createdAt.toISOString(), data: r.data }));
  return { items, next: items.at(-1)?.id ?? query.after ?? null, hasMore: rows.length > query.limit };
}
