import "server-only";

import type { BusinessEvent } from "@/lib/client/events/catalogue";

import { BODY_LIMIT_BYTES } from "./sign";

// The body an outgoing delivery carries (docs/architecture.md "Outgoing webhooks"): the event's JSON, at most
// BODY_LIMIT_BYTES (64 KiB) of UTF-8. A larger event is sent with its `data` cut down to the fields that name its
// object, and `"truncated": true`, so the receiver knows to read that object from the API (GET /api/v1/payments/:uuid,
// /api/v1/requests/:id, …) or the whole event from the event log (docs/decisions.md "Outgoing webhooks (issue 40)").

/** The fields of an event's `data` a truncated body keeps (those present): what names the object the event is about. */
export const IDENTIFYING_FIELDS = [
  "id",
  "uuid",
  "requestId",
  "reference",
  "paymentUuid",
  "campaignId",
  "planId",
  "pageId",
  "slug",
  "tag",
  "period",
  "status",
  "test",
] as const;

/** A kept field's value is a short scalar: a long string or an object is not what names something. */
const MAX_KEPT_STRING = 200;

const keepable = (value: unknown): boolean =>
  typeof value === "number" || typeof value === "boolean" || (typeof value === "string" && value.length <= MAX_KEPT_STRING);

export const bodyBytes = (body: string): number => Buffer.byteLength(body, "utf8");

/**
 * The event's JSON when it fits in BODY_LIMIT_BYTES; else the event with `data` cut down to its identifying fields
 * and `truncated: true` (a few hundred bytes at most, whatever the event).
 */
export function deliveryBody(event: BusinessEvent): string {
  const whole = JSON.stringify(event);
  if (bodyBytes(whole) <= BODY_LIMIT_BYTES) return whole;
  const data: Record<string, unknown> = {};
  for (const field of IDENTIFYING_FIELDS) if (keepable(event.data[field])) data[field] = event.data[field];
  data.truncated = true;
  return JSON.stringify({ id: event.id, type: event.type, createdAt: event.createdAt, data });
}
