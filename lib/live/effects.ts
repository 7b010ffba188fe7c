import type { QueryKey } from "@tanstack/react-query";

import { keys } from "@/lib/query/options";

import type { LiveEvent } from "./bus";

// Client-safe: what a live event means for an open tab. (bus.ts is server-only; its type is erased.)

export type LiveEventType = LiveEvent["type"];

/** Every event /api/live sends; the browser listens for each by name. */
export const LIVE_EVENT_TYPES = ["request.updated", "payment.recorded", "payment.updated", "balance.changed"] as const satisfies readonly LiveEventType[];

// Does not compile when bus.ts gains an event type the list above lacks.
type AssertNone<T extends never> = T;
export type _EveryEventListed = AssertNone<Exclude<LiveEventType, (typeof LIVE_EVENT_TYPES)[number]>>;

export interface LiveEffect {
  /** The queries whose data the event may have changed. */
  queryKeys: readonly QueryKey[];
  /** The page at this path draws the changed data on the server: ask for a fresh render (router.refresh). */
  refresh: boolean;
}

/**
 * Pages that draw payments on the server rather than through a query: the overview's recent
 * payments and the payments page's chart.
 */
export function showsServerRenderedPayments(pathname: string): boolean {
  return pathname === "/" || pathname.startsWith("/payments");
}

export function liveEffect(type: LiveEventType, pathname: string): LiveEffect {
  switch (type) {
    case "request.updated":
      return { queryKeys: [keys.requests], refresh: false };
    case "payment.recorded":
    case "payment.updated":
      // A payment settles its request too.
      return { queryKeys: [keys.payments, keys.requests], refresh: showsServerRenderedPayments(pathname) };
    case "balance.changed":
      return { queryKeys: [keys.balance], refresh: false };
  }
}
