import { describe, expect, it } from "vitest";

import { keys } from "@/lib/query/options";

import { LIVE_EVENT_TYPES, liveEffect, showsServerRenderedCampaigns, showsServerRenderedLiveData, showsServerRenderedPayments } from "./effects";

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

  it("covers every event type with at least one query, or a re-render of the pages that draw it", () => {
    for (const type of LIVE_EVENT_TYPES) {
      const touches = liveEffect(type, "/").queryKeys.length > 0 || liveEffect(type, "/campaigns").refresh;
      expect(touches, type).toBe(true);
    }
  });
});

describe("liveEffect on campaign pages", () => {
  const campaignPages = ["/campaigns", "/campaigns/0b4f3c1e-1111-4222-8333-444455556666"];

  it.each(["campaign.progress", "request.updated", "payment.recorded"] as const)("%s re-renders the campaign list and a campaign's page", (type) => {
    for (const path of campaignPages) expect(liveEffect(type, path).refresh, `${type} on ${path}`).toBe(true);
  });

  it("keeps the query invalidations of request and payment events there", () => {
    expect(liveEffect("request.updated", "/campaigns")).toEqual({ queryKeys: [keys.requests], refresh: true });
    expect(liveEffect("payment.recorded", "/campaigns")).toEqual({ queryKeys: [keys.payments, keys.requests], refresh: true });
  });

  it("campaign.progress touches no query and re-renders nothing elsewhere, the upload form included", () => {
    for (const path of ["/", "/payments", "/requests", "/requests/42", "/campaigns/new", "/campaignsx"]) {
      expect(liveEffect("campaign.progress", path), path).toEqual({ queryKeys: [], refresh: false });
    }
  });

  it("leaves balance and verification events to their queries on campaign pages", () => {
    expect(liveEffect("balance.changed", "/campaigns").refresh).toBe(false);
    expect(liveEffect("payment.updated", "/campaigns").refresh).toBe(false);
  });
});

describe("showsServerRenderedCampaigns", () => {
  it("is the list and a campaign's page, not the upload form or look-alike paths", () => {
    expect(showsServerRenderedCampaigns("/campaigns")).toBe(true);
    expect(showsServerRenderedCampaigns("/campaigns/abc")).toBe(true);
    expect(showsServerRenderedCampaigns("/campaigns/new")).toBe(false);
    expect(showsServerRenderedCampaigns("/campaignsx")).toBe(false);
    expect(showsServerRenderedCampaigns("/")).toBe(false);
  });

  it("joins the payments pages in what a reconnect re-renders", () => {
    for (const path of ["/", "/payments", "/campaigns", "/campaigns/abc"]) expect(showsServerRenderedLiveData(path), path).toBe(true);
    for (const path of ["/requests", "/campaigns/new", "/staff"]) expect(showsServerRenderedLiveData(path), path).toBe(false);
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
