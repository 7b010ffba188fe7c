import { describe, expect, it } from "vitest";

import type { CampaignCounts } from "@/lib/client/campaigns/view";

import { campaignProgress, campaignRowsSearch, formatNaira, formatRowAmount, rowFilterParam, timeLeftText } from "./format";

const counts = (over: Partial<CampaignCounts>): CampaignCounts => ({
  total: 0,
  invalid: 0,
  queued: 0,
  sent: 0,
  accepted: 0,
  declined: 0,
  failed: 0,
  unknown: 0,
  skipped: 0,
  ...over,
});

describe("campaignProgress", () => {
  it("counts every handled row against the sendable ones", () => {
    expect(campaignProgress(counts({ total: 10, invalid: 2, queued: 2, sent: 1, accepted: 2, declined: 1, failed: 1, skipped: 1 }))).toEqual({
      handled: 6,
      target: 8,
      percent: 75,
    });
  });

  it("is 0 % when nothing can be sent, and never over 100 %", () => {
    expect(campaignProgress(counts({ total: 3, invalid: 3 }))).toEqual({ handled: 0, target: 0, percent: 0 });
    expect(campaignProgress(counts({ total: 4, accepted: 4 })).percent).toBe(100);
  });
});

describe("timeLeftText", () => {
  it("says minutes at the budget's pace, rounded up", () => {
    expect(timeLeftText(61, "sending")).toBe("about 2 minutes at the budget's pace");
    expect(timeLeftText(60, "sending")).toBe("about 1 minute at the budget's pace");
    expect(timeLeftText(20, "sending")).toBe("less than a minute at the budget's pace");
    expect(timeLeftText(600, "paused")).toBe("about 10 minutes at the budget's pace once resumed");
    expect(timeLeftText(null, "done")).toBe("Nothing left to send");
  });
});

describe("amounts", () => {
  it("formats a valid row's naira and shows an invalid one as written", () => {
    expect(formatRowAmount("1500.00")).toBe("NGN 1,500.00");
    expect(formatRowAmount("abc")).toBe("abc");
    expect(formatRowAmount(" ")).toBe("—");
    expect(formatNaira("2000.5")).toBe("NGN 2,000.50");
  });
});

describe("the rows filter in the URL", () => {
  it("reads only known filters and writes defaults as nothing", () => {
    expect(rowFilterParam("invalid")).toBe("invalid");
    expect(rowFilterParam(["warning", "x"])).toBe("warning");
    expect(rowFilterParam("bogus")).toBeUndefined();
    expect(rowFilterParam(undefined)).toBeUndefined();
    expect(campaignRowsSearch({ page: 1 })).toBe("");
    expect(campaignRowsSearch({ status: "accepted", page: 3 })).toBe("?status=accepted&page=3");
  });
});
