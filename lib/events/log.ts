import "server-only";

import { and, asc, eq, gt, isNotNull, sql } from "drizzle-orm";

import type { Actor } from "@/lib/actors/actor";
import { authorize, can } from "@/lib/actors/permissions";
import type { BusinessEvent, EventType } from "@/lib/client/events/catalogue";
import type { Db } from "@/lib/db/client";
import { events } from "@/lib/db/schema";
import { maskEmail, maskPhone } from "@/lib/payments/view";

// The event log as the API reads it (docs/architecture.md "The API"): oldest first after a cursor (an event id), in
// the order events were dispatched (`seq`, given after their commit), so a cursor never passes an event that
// commits later; an event shows once dispatched (within about a second).

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

/** A payment's customer as a reader without `payers.read` may see it: e-mail and phone masked, as a viewer sees them. */
function masked(data: Record<string, unknown>): Record<string, unknown> {
  const customer = data.customer;
  if (typeof customer !== "object" || customer === null) return data;
  const c = customer as Record<string, unknown>;
  return {
    ...data,
    customer: {
      ...c,
      email: typeof c.email === "string" ? maskEmail(c.email) : (c.email ?? null),
      phone: typeof c.phone === "string" ? maskPhone(c.phone) : (c.phone ?? null),
    },
  };
}

export async function readEventLog(db: Db, actor: Actor, query: EventLogQuery): Promise<EventLogPage> {
  authorize(actor, "events.read");
  // An `after` no longer kept (past 30 days) is older than everything kept: the log starts from the oldest.
  const after = query.after ? sql`coalesce((select ${events.seq} from ${events} where ${events.id} = ${query.after}), 0)` : null;
  const rows = await db
    .select({ id: events.id, type: events.type, createdAt: events.createdAt, data: events.data })
    .from(events)
    .where(and(isNotNull(events.seq), after ? gt(events.seq, after) : undefined, query.type ? eq(events.type, query.type) : undefined))
    .orderBy(asc(events.seq))
    .limit(query.limit + 1);
  const contact = can(actor, "payers.read");
  const items = rows.slice(0, query.limit).map((r) => ({
    id: r.id,
    type: r.type as EventType,
    createdAt: r.createdAt.toISOString(),
    data: contact ? r.data : masked(r.data),
  }));
  return { items, next: items.at(-1)?.id ?? query.after ?? null, hasMore: rows.length > query.limit };
}
