import { describe, expect, it } from "vitest";

import { campaignStatusText } from "./status-badge";

describe("a campaign's state in words", () => {
  it("says a finished campaign still has people to answer, and is plain otherwise", () => {
    expect(campaignStatusText("done", 12)).toBe("sent — 12 still to answer");
    expect(campaignStatusText("done", 1_250)).toBe("sent — 1,250 still to answer");
    expect(campaignStatusText("done", 0)).toBe("done");
    expect(campaignStatusText("sending", 40)).toBe("sending");
  });

  it("calls a draft cancelled before it started discarded", () => {
    expect(campaignStatusText("cancelled", 0, true)).toBe("discarded");
    expect(campaignStatusText("cancelled", 0)).toBe("cancelled");
  });
});
