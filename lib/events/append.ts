import "server-only";

import type { BusinessEvent, EventType } from "@/lib/client/events/catalogue";
import type { Db } from "@/lib/db/client";
import { events } from "@/lib/db/schema";

import { newEventId } from "./id";

/**
 * The one writer of `events` (docs/architecture.md "Events"). `tx` is the transaction of the change the event
 * describes: the event commits with it or not at all. `data` is the object's public shape (as the API answers it).
 */
export async function appendEvent<T extends object>(tx: Db, type: EventType, data: T, now: Date = new Date()): Promise<BusinessEvent<T>> {
  const [event] = await appendEvents(tx, [{ type, data }], now);
  if (!event) throw new Error("the event was not appended");
  return event;
}

/** appendEvent for several changes of one transaction (a batch of verdicts), in one insert. */
export async function appendEvents<T extends object>(
  tx: Db,
  items: readonly { type: EventType; data: T }[],
  now: Date = new Date(),
): Promise<BusinessEvent<T>[]> {
  if (items.length === 0) return [];
  const made = items.map(({ type, data }) => ({ id: newEventId(now.getTime()), type, createdAt: now, data }));
  await tx.insert(events).values(made.map((e) => ({ ...e, data: e.data as Record<string, unknown> })));
  return made.map((e) => ({ ...e, createdAt: now.toISOString() }));
}
