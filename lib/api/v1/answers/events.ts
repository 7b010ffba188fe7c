import { z } from "zod";

import { EVENT_TYPES } from "@/lib/client/events/catalogue";
import type { EventLogPage } from "@/lib/events/log";

import { assertSame, isoTime, type Same } from "../wire";

// The event log: the same bodies the outgoing webhooks send.

export const eventAnswer = z
  .object({
    id: z.string().meta({ example: "evt_01JDQ4Z8Q9N6Y7T3V2B1C0D9E8" }),
    type: z.enum(EVENT_TYPES),
    createdAt: isoTime,
    data: z.record(z.string(), z.unknown()).meta({ description: "The object's public shape, as the API answers it" }),
  })
  .meta({ id: "Event" });

export const eventLogAnswer = z
  .object({
    items: z.array(eventAnswer),
    next: z.string().nullable().meta({ description: "Pass as `after` for the next page" }),
    hasMore: z.boolean(),
  })
  .meta({ id: "EventLog" });

export const eventLogQuery = z.object({
  after: z
    .string()
    .regex(/^evt_[0-9A-HJKMNP-TV-Z]{26}$/, "after is an event id (evt_ and 26 characters)")
    .optional()
    .meta({ description: "The last event id you have read; absent: from the oldest kept (30 days)" }),
  type: z.enum(EVENT_TYPES, { error: "type is one of the event types" }).optional(),
  limit: z.coerce.number({ error: "limit is a whole number from 1 to 100" }).int().min(1, "limit is at least 1").max(100, "limit is at most 100").default(100),
});

assertSame<Same<z.output<typeof eventLogAnswer>, EventLogPage>>(true);
