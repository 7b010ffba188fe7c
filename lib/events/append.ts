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
  const id = newEventId(now.getTime());
  await tx.insert(events).values({ id, type, createdAt: now, data: data as Record<string, unknown> });
  return { id, type, createdAt: now.toISOString(), data };
}
