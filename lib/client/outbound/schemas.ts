import { z } from "zod";

import { EVENT_TYPES } from "@/lib/client/events/catalogue";

// Outgoing webhooks' bodies and answers (docs/architecture.md "Outgoing webhooks"): one schema per input, shared by
// the page's forms and the routes.

export const MAX_ENDPOINTS = 20;

const eventTypesSchema = z.union(
  [z.literal("all"), z.array(z.enum(EVENT_TYPES, { error: "Choose event types from the list" })).min(1, "Choose at least one event type, or all")],
  {
    error: 'Send "all" or a list of event types',
  },
);

export const endpointCreateSchema = z
  .object({
    url: z.string({ error: "Enter the endpoint's URL" }).trim().min(1, "Enter the endpoint's URL").max(2000, "At most 2,000 characters"),
    description: z.string().trim().max(200, "At most 200 characters").default(""),
    eventTypes: eventTypesSchema.default("all"),
    enabled: z.boolean().default(true),
  })
  .strict();
export type EndpointCreate = z.output<typeof endpointCreateSchema>;

export const endpointPatchSchema = z
  .object({
    url: endpointCreateSchema.shape.url.optional(),
    description: z.string().trim().max(200, "At most 200 characters").optional(),
    eventTypes: eventTypesSchema.optional(),
    enabled: z.boolean().optional(),
  })
  .strict()
  .refine((p) => Object.keys(p).length > 0, "Send at least one of url, description, eventTypes, enabled");
export type EndpointPatch = z.output<typeof endpointPatchSchema>;

export const rotateSecretSchema = z
  .object({
    overlapHours: z
      .number({ error: "Say how many hours the old secret keeps signing (0–168)" })
      .int("Whole hours, 0 to 168")
      .min(0, "0 to 168 hours")
      .max(168, "0 to 168 hours")
      .default(24),
  })
  .strict();

export const testEventSchema = z.object({ type: z.enum(EVENT_TYPES, { error: "Choose an event type from the list" }) }).strict();

export const recoverSchema = z.object({ since: z.iso.datetime({ offset: true, error: "Give a time like 2026-11-27T08:00:00Z" }) }).strict();

export const DELIVERY_STATUSES = ["pending", "delivered", "failed"] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

export interface EndpointView {
  id: string;
  url: string;
  description: string;
  eventTypes: string[] | "all";
  enabled: boolean;
  disabledReason: string | null;
  createdAt: string;
  /** `whsec_…` followed by its last 4 characters: the whole secret only at creation and on an audited reveal. */
  secretHint: string;
  /** When the previous secret stops signing (a rotation's overlap), or null. */
  previousSecretUntil: string | null;
  lastSuccessAt: string | null;
  failingSince: string | null;
}

export interface DeliveryView {
  id: string;
  endpointId: string;
  eventId: string;
  eventType: string;
  status: DeliveryStatus;
  attempts: number;
  lastStatusCode: number | null;
  lastResponse: string | null;
  lastError: string | null;
  lastAttemptAt: string | null;
  nextAttemptAt: string | null;
  deliveredAt: string | null;
  createdAt: string;
}

/** The page's add form: "all events" or the ticked types, turned into the body POST /api/webhook-endpoints parses. */
export const endpointFormSchema = z
  .object({
    url: endpointCreateSchema.shape.url,
    description: z.string().trim().max(200, "At most 200 characters"),
    allEvents: z.boolean(),
    types: z
      .array(z.enum(EVENT_TYPES))
      .or(z.literal(false))
      .transform((v) => (v === false ? [] : v)),
  })
  .refine((v) => v.allEvents || v.types.length > 0, { path: ["types"], message: "Tick at least one event type, or all events" })
  .transform((v) => ({ url: v.url, description: v.description, eventTypes: v.allEvents ? ("all" as const) : v.types, enabled: true }));
