import { describe, expect, it } from "vitest";

import { keys } from "@/lib/query/options";

import { LIVE_EVENT_TYPES, liveEffect, showsServerRenderedPayments } from "./effects";

describe("liveEffect", () => {
  it.each(["payment.recorded", "payment.updated"] as const)("%s refreshes the overview, whose recent payments are server-rendered", (type) => {
    expect(liveEffect(type, "/")).toEqual({ queryKeys: [keys.payments, keys.requests], refresh: true });
  });

  it.each(["payment.recorded", "payment.updated"] as const)(
    "%s refreshes the payments pages (the chart) and invalidates payment and request queries",
    (type) => {
      expect(liveEffect(type, "/payments")).toEqual({ queryKeys: [keys.payments, keys.requests], refresh: true });
      expect(liveEffect(type, "/payments/0b4f3c1e-1111-4222-8333-444455556666").refresh).toBe(true);
    },
  );

  it("leaves pages with no server-rendered payments to their queries", () => {
    for (const path of ["/requests", "/requests/42", "/requests/new", "/webhooks", "/staff", "/audit"]) {
      expect(liveEffect("payment.recorded", path)).toEqual({ queryKeys: [keys.payments, keys.requests], refresh: false });
    }
  });

  it("maps request and balance events to their own queries, never a server render", () => {
    for (const path of ["/", "/payments", "/requests"]) {
      expect(liveEffect("request.updated", path)).toEqual({ queryKeys: [keys.requests], refresh: false });
      expect(liveEffect("balance.changed", path)).toEqual({ queryKeys: [keys.balance], refresh: false });
    }
  });

  it("covers every event type with at least one query", () => {
    for (const type of LIVE_EVENT_TYPES) expect(liveEffect(type, "/").queryKeys.length).toBeGreaterThan(0);
  });
});

describe("showsServerRenderedPayments", () => {
  it("is the overview exactly, and the payments pages", () => {
    expect(showsServerRenderedPayments("/")).toBe(true);
    expect(showsServerRenderedPayments("/payments")).toBe(true);
    expect(showsServerRenderedPayments("/requests")).toBe(false);
    expect(showsServerRenderedPayments("")).toBe(false);
  });
});
