import "server-only";

import { eq, inArray } from "drizzle-orm";
import { z } from "zod";

import type { BusinessEvent, EventType } from "@/lib/client/events/catalogue";
import type { Db } from "@/lib/db/client";
import { events } from "@/lib/db/schema";
import type { Job } from "@/lib/jobs/define";

// A durable consumer of business events (docs/architecture.md "Events"): one file in its domain declares which
// events it wants, for whom, and the job that does its one thing for one (event, recipient). The dispatcher
// (./dispatch.job.ts) queues that job under an id derived from (event, consumer, recipient), so each acts once
// however many instances dispatch, and an event committed just before a crash is dispatched by the next pass.

/** What every consumer's job is sent: the event's id and whom it is for ("" when there is one action per event). */
export const consumerPayload = z.object({ eventId: z.string().min(1), recipient: z.string() });
export type ConsumerPayload = z.infer<typeof consumerPayload>;

export interface EventConsumer {
  /** Stable (part of every job id): renaming it would act again on events not yet 30 days old. */
  name: string;
  types: readonly EventType[] | "all";
  /**
   * Whom events are for (people, endpoints): loads what that depends on once per dispatch pass, then answers each
   * event's recipients ([""] when there is one action per event; [] for none) without another statement. It runs in
   * the pass's transaction: it reads through `db` only (on the embedded database anything else waits for ever).
   */
  recipientsFor(db: Db): Promise<(event: BusinessEvent) => string[]>;
  job: Job<ConsumerPayload>;
}

export function wants(consumer: Pick<EventConsumer, "types">, type: EventType): boolean {
  return consumer.types === "all" || consumer.types.includes(type);
}

type EventRow = typeof events.$inferSelect;

function toEvent(row: EventRow): BusinessEvent {
  return { id: row.id, type: row.type as EventType, createdAt: row.createdAt.toISOString(), data: row.data };
}

/** The event a consumer's job names, as every consumer sees it; null once retention removed it. */
export async function loadEvent(db: Db, id: string): Promise<BusinessEvent | null> {
  const [row] = await db.select().from(events).where(eq(events.id, id)).limit(1);
  return row ? toEvent(row) : null;
}

/** The events a batch of jobs names, by id (those retention removed are absent). */
export async function loadEvents(db: Db, ids: readonly string[]): Promise<Map<string, BusinessEvent>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .select()
    .from(events)
    .where(inArray(events.id, [...ids]));
  return new Map(rows.map((r) => [r.id, toEvent(r)]));
}
