import type { QueryKey } from "@tanstack/react-query";

import { keys } from "@/lib/query/options";

import type { LiveEvent } from "./bus";

// Client-safe: what a live event means for an open tab. (bus.ts is server-only; its type is erased.)

export type LiveEventType = LiveEvent["type"];

/** Every event /api/live sends; the browser listens for each by name. */
export const LIVE_EVENT_TYPES = [
  "request.updated",
  "payment.recorded",
  "payment.updated",
  "balance.changed",
  "campaign.progress",
] as const satisfies readonly LiveEventType[];

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

/**
 * Campaign pages, drawn on the server (the list and one campaign's page, not the upload form): a
 * row sent, a request answered or a payment recorded changes their counts and amounts.
 */
export function showsServerRenderedCampaigns(pathname: string): boolean {
  return pathname === "/campaigns" || (pathname.startsWith("/campaigns/") && pathname !== "/campaigns/new");
}

/** Pages with server-drawn live data, re-rendered after a lost connection comes back. */
export function showsServerRenderedLiveData(pathname: string): boolean {
  return showsServerRenderedPayments(pathname) || showsServerRenderedCampaigns(pathname);
}

export function liveEffect(type: LiveEventType, pathname: string): LiveEffect {
  switch (type) {
    case "request.updated":
      // A campaign row that was sent shows its request's status.
      return { queryKeys: [keys.requests], refresh: showsServerRenderedCampaigns(pathname) };
    case "payment.recorded":
      // A payment settles its request too, and adds to a campaign's collected amount.
      return { queryKeys: [keys.payments, keys.requests], refresh: showsServerRenderedPayments(pathname) || showsServerRenderedCampaigns(pathname) };
    case "payment.updated":
      return { queryKeys: [keys.payments, keys.requests], refresh: showsServerRenderedPayments(pathname) };
    case "balance.changed":
      return { queryKeys: [keys.balance], refresh: false };
    case "campaign.progress":
      // No query holds campaigns: their pages are server-rendered, so a re-render is the whole effect.
      return { queryKeys: [], refresh: showsServerRenderedCampaigns(pathname) };
  }
}
