import { QueryClient, type QueryKey } from "@tanstack/react-query";
import { describe, expect, it } from "vitest";

import { keys } from "@/lib/client/query/options";
import type { LiveEvent } from "@/lib/live/bus";

import { LIVE_EVENT_TYPES, fallbackEffect, liveEffect, parseLiveEvent } from "./effects";

const CAMPAIGN = "0b4f3c1e-1111-4222-8333-444455556666";
const OTHER_CAMPAIGN = "0b4f3c1e-9999-4222-8333-444455556666";
const UUID = "9d1c7f0a-2222-4333-8444-555566667777";
const OTHER_UUID = "9d1c7f0a-8888-4333-8444-555566667777";
const PLAN = "5e6f7a8b-3333-4444-8555-666677778888";
/** Every plan query in the cache: a period's campaign is not known to be a plan's, so its events re-read them all. */
const PLAN_KEYS = [keys.planList(1), keys.plan(PLAN), keys.planBoard(PLAN, false), keys.planBoard(PLAN, true)];

/** A cache holding one query of every kind the screens read, for two ids each. */
function filledCache(): QueryClient {
  const client = new QueryClient();
  const all: QueryKey[] = [
    keys.balance,
    keys.requestList({ page: 1 }),
    keys.requestList({ status: "pending", page: 2 }),
    keys.request("101"),
    keys.request("202"),
    keys.paymentList({ page: 1 }),
    keys.paymentList({ q: "ada", page: 3 }),
    keys.settledPerDay,
    keys.desk,
    keys.payment(UUID),
    keys.payment(OTHER_UUID),
    keys.campaignList(1),
    keys.campaignList(2),
    keys.campaign(CAMPAIGN),
    keys.campaignRows(CAMPAIGN, { page: 1 }),
    keys.campaignRows(CAMPAIGN, { status: "invalid", page: 1 }),
    keys.campaign(OTHER_CAMPAIGN),
    keys.campaignRows(OTHER_CAMPAIGN, { page: 1 }),
    keys.sessions,
    keys.planList(1),
    keys.plan(PLAN),
    keys.planBoard(PLAN, false),
    keys.planBoard(PLAN, true),
    keys.dayBook({ from: "2026-11-01", to: "2026-11-25" }),
    keys.dayBook({ from: "2026-10-01", to: "2026-10-31" }),
  ];
  for (const key of all) client.setQueryData(key, { data: true });
  return client;
}

/** The cached queries an event's keys invalidate (by prefix, as the browser does), as JSON for readable failures. */
function touched(event: LiveEvent): string[] {
  const client = filledCache();
  const hit = new Set<string>();
  for (const key of liveEffect(event)) {
    for (const query of client.getQueryCache().findAll({ queryKey: key })) hit.add(JSON.stringify(query.queryKey));
  }
  return [...hit].sort();
}

const json = (...list: QueryKey[]) => list.map((k) => JSON.stringify(k)).sort();

/** Every day book in the cache: each range's days may hold the event's request, payment or balance reading. */
const DAY_BOOKS = [keys.dayBook({ from: "2026-11-01", to: "2026-11-25" }), keys.dayBook({ from: "2026-10-01", to: "2026-10-31" })];

describe("liveEffect: exactly the queries an event changed", () => {
  it("request.updated: the request lists, that request, the money panel and the day books; its campaign's list rows and page, and the plans, when a campaign sent it", () => {
    expect(touched({ type: "request.updated", requestId: "101", campaignId: null, status: "accepted" })).toEqual(
      json(keys.requestList({ page: 1 }), keys.requestList({ status: "pending", page: 2 }), keys.request("101"), keys.desk, ...DAY_BOOKS),
    );
    expect(touched({ type: "request.updated", requestId: "101", campaignId: CAMPAIGN, status: "accepted" })).toEqual(
      json(
        keys.requestList({ page: 1 }),
        keys.requestList({ status: "pending", page: 2 }),
        keys.request("101"),
        keys.desk,
        ...DAY_BOOKS,
        keys.campaignList(1),
        keys.campaignList(2),
        keys.campaign(CAMPAIGN),
        keys.campaignRows(CAMPAIGN, { page: 1 }),
        keys.campaignRows(CAMPAIGN, { status: "invalid", page: 1 }),
        ...PLAN_KEYS,
      ),
    );
  });

  it("request.updated for a request still being sent (no service id yet) touches the lists only", () => {
    expect(touched({ type: "request.updated", requestId: null, campaignId: null, status: "sending" })).toEqual(
      json(keys.requestList({ page: 1 }), keys.requestList({ status: "pending", page: 2 }), keys.desk, ...DAY_BOOKS),
    );
  });

  it("payment.recorded: every payments list, the chart, the money panel, that payment, the plans (a board's collected) and the day books", () => {
    expect(touched({ type: "payment.recorded", uuid: UUID })).toEqual(
      json(
        keys.paymentList({ page: 1 }),
        keys.paymentList({ q: "ada", page: 3 }),
        keys.settledPerDay,
        keys.desk,
        keys.payment(UUID),
        ...PLAN_KEYS,
        ...DAY_BOOKS,
      ),
    );
  });

  it("payment.updated: the payments lists, that payment (its request's page reads the same query) and the day books' verified counts, not the chart", () => {
    expect(touched({ type: "payment.updated", uuid: UUID.toUpperCase(), verification: "verified" })).toEqual(
      json(keys.paymentList({ page: 1 }), keys.paymentList({ q: "ada", page: 3 }), keys.payment(UUID), ...DAY_BOOKS),
    );
  });

  it("campaign.progress: the campaign lists and that campaign's page, no other campaign; the plans (its boards)", () => {
    expect(touched({ type: "campaign.progress", campaignId: CAMPAIGN })).toEqual(
      json(
        keys.campaignList(1),
        keys.campaignList(2),
        keys.campaign(CAMPAIGN),
        keys.campaignRows(CAMPAIGN, { page: 1 }),
        keys.campaignRows(CAMPAIGN, { status: "invalid", page: 1 }),
        ...PLAN_KEYS,
      ),
    );
  });

  it("balance.changed: the balance and the day books (their balance columns), nothing else", () => {
    expect(touched({ type: "balance.changed" })).toEqual(json(keys.balance, ...DAY_BOOKS));
  });
});

describe("parseLiveEvent", () => {
  it("reads each event as /api/live sends it (the bus's JSON)", () => {
    const events: LiveEvent[] = [
      { type: "request.updated", requestId: "101", campaignId: CAMPAIGN, status: "pending" },
      { type: "request.updated", requestId: null, campaignId: null, status: "sending" },
      { type: "payment.recorded", uuid: UUID },
      { type: "payment.updated", uuid: UUID, verification: "verified" },
      { type: "balance.changed" },
      { type: "campaign.progress", campaignId: CAMPAIGN },
    ];
    for (const event of events) expect(parseLiveEvent(event.type, JSON.stringify(event))).toEqual(event);
  });

  it("refuses data that is not the event it is named as; such an event invalidates its whole kind", () => {
    expect(parseLiveEvent("campaign.progress", JSON.stringify({ id: CAMPAIGN }))).toBeNull();
    expect(parseLiveEvent("payment.recorded", "not json")).toBeNull();
    expect(parseLiveEvent("request.updated", "null")).toBeNull();
    for (const type of LIVE_EVENT_TYPES) expect(fallbackEffect(type).length, type).toBeGreaterThan(0);
  });

  it("an unreadable event that could change a day (a request, a payment, the balance) invalidates the day books too", () => {
    const client = filledCache();
    for (const type of ["request.updated", "payment.recorded", "payment.updated", "balance.changed"] as const) {
      const hit = fallbackEffect(type).flatMap((key) =>
        client
          .getQueryCache()
          .findAll({ queryKey: key })
          .map((q) => JSON.stringify(q.queryKey)),
      );
      expect(hit, type).toEqual(expect.arrayContaining(json(...DAY_BOOKS)));
    }
    expect(fallbackEffect("campaign.progress")).not.toContainEqual(keys.dayBooks);
  });
});
