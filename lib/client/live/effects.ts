import type { QueryKey } from "@tanstack/react-query";

import { keys } from "@/lib/client/query/options";
// Type only (erased): the events are typed where they are published.
import type { LiveEvent } from "@/lib/live/bus";

// What a live event means for an open tab: the query keys whose data it changed, from the ids it carries. Every
// screen with live data reads it through a query (lib/client/query/options.ts), so invalidating is the whole effect.

export type LiveEventType = LiveEvent["type"];

/** Every event /api/live sends; the browser listens for each by name. */
export const LIVE_EVENT_TYPES = [
  "request.updated",
  "payment.recorded",
  "payment.updated",
  "balance.changed",
  "campaign.progress",
  "exceptions.changed",
  "notification.created",
] as const satisfies readonly LiveEventType[];

// Does not compile when bus.ts gains an event type the list above lacks.
type AssertNone<T extends never> = T;
export type _EveryEventListed = AssertNone<Exclude<LiveEventType, (typeof LIVE_EVENT_TYPES)[number]>>;

/** The queries an event changed: the lists it can appear in, and the detail of each id it names. No more, no less. */
export function liveEffect(event: LiveEvent): QueryKey[] {
  switch (event.type) {
    case "request.updated":
      // A campaign row shows its request's status, and the campaign counts and sums it.
      return [
        keys.requestLists,
        ...(event.requestId ? [keys.request(event.requestId)] : []),
        // A campaign's request may be a plan period's: its board, periods and the plans list count it.
        ...(event.campaignId ? [keys.campaignLists, keys.campaign(event.campaignId), keys.plans] : []),
        // Answered or linked: the money panel's outstanding amount moves, and so do the payer's counts.
        keys.desk,
        keys.payers,
        // Sent, accepted, declined or failed: the day book counts each on its day.
        keys.dayBooks,
      ];
    case "payment.recorded":
      // A new payment is in the lists and the chart; it is linked later (request.updated and payment.updated say so).
      return [keys.paymentLists, keys.settledPerDay, keys.desk, keys.payment(event.uuid), keys.payers, keys.plans, keys.dayBooks];
    case "payment.updated":
      // Linked or verified: the lists show both, and so does its detail (also drawn on its request's page); the day
      // book counts the verified payments of each day.
      return [keys.paymentLists, keys.payment(event.uuid), keys.dayBooks];
    case "balance.changed":
      // The day book's balance columns come from the readings.
      return [keys.balance, keys.dayBooks];
    case "campaign.progress":
      // The campaign may be a plan period's (a run, a chasing round): the plans read its rows too.
      return [keys.campaignLists, keys.campaign(event.campaignId), keys.plans];
    case "exceptions.changed":
      // The inbox, each exception and the navigation's count; the day book counts the open ones of each day.
      return [keys.exceptions, keys.dayBooks];
    case "notification.created":
      // The bell's count and the notifications page (only its person's tabs hear it).
      return [keys.notifications];
  }
}

const isString = (value: unknown): value is string => typeof value === "string";
const isStringOrNull = (value: unknown): value is string | null => value === null || typeof value === "string";

/** An event's data as /api/live sends it; null when it is not one this tab understands (an older or newer server's). */
export function parseLiveEvent(type: LiveEventType, data: string): LiveEvent | null {
  let value: unknown;
  try {
    value = JSON.parse(data);
  } catch {
    return null;
  }
  if (typeof value !== "object" || value === null) return null;
  const fields = value as Record<string, unknown>;
  switch (type) {
    case "request.updated":
      return isStringOrNull(fields.requestId) && isStringOrNull(fields.campaignId) && isString(fields.status)
        ? { type, requestId: fields.requestId, campaignId: fields.campaignId, status: fields.status }
        : null;
    case "payment.recorded":
      return isString(fields.uuid) ? { type, uuid: fields.uuid } : null;
    case "payment.updated":
      return isString(fields.uuid) && isString(fields.verification) ? { type, uuid: fields.uuid, verification: fields.verification } : null;
    case "balance.changed":
      return { type };
    case "campaign.progress":
      return isString(fields.campaignId) ? { type, campaignId: fields.campaignId } : null;
    case "exceptions.changed":
      return { type };
    case "notification.created":
      return isString(fields.staffId) && isString(fields.id) ? { type, staffId: fields.staffId, id: fields.id } : null;
  }
}

/** What an event this tab cannot read invalidates: every list and detail of its kind, so nothing stays stale. */
export function fallbackEffect(type: LiveEventType): QueryKey[] {
  switch (type) {
    case "request.updated":
      return [["requests"], ["campaigns"], keys.desk, keys.payers, keys.plans, keys.dayBooks];
    case "payment.recorded":
      return [["payments"], keys.payers, keys.plans, keys.dayBooks];
    case "payment.updated":
      return [["payments"], keys.dayBooks];
    case "balance.changed":
      return [keys.balance, keys.dayBooks];
    case "campaign.progress":
      return [["campaigns"], keys.plans];
    case "exceptions.changed":
      return [keys.exceptions, keys.dayBooks];
    case "notification.created":
      return [keys.notifications];
  }
}
