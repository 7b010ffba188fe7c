import { describe, expect, it } from "vitest";

import { formatTime, zoneLabel } from "./format";

describe("formatTime", () => {
  it("shows the wall clock of the business's zone, not UTC", () => {
    // 23:30 UTC on the 24th is 00:30 on the 25th in Lagos (UTC+1).
    expect(formatTime("2026-11-24T23:30:05Z", "Africa/Lagos")).toBe("25 Nov 2026, 00:30:05");
    expect(formatTime("2026-11-24T23:30:05Z", "UTC")).toBe("24 Nov 2026, 23:30:05");
  });

  it("says nothing was there, and shows an unreadable value as it came", () => {
    expect(formatTime(null, "Africa/Lagos")).toBe("—");
    expect(formatTime("not a time", "Africa/Lagos")).toBe("not a time");
  });

  it("names the zone as people read it", () => {
    expect(zoneLabel("Africa/Lagos")).toBe("GMT+1");
  });
});
