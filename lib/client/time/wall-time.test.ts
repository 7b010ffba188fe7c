import { describe, expect, it } from "vitest";

import { wallTime } from "./zone";

// A wall-clock time on a day the clocks change (docs/decisions.md "A send time in a skipped or repeated hour"): one
// rule in every zone, whichever side of UTC it is.
describe("a wall-clock time on a day the clocks change", () => {
  const at = (day: string, hhmm: string, zone: string) => {
    const [h, m] = hhmm.split(":").map(Number);
    return wallTime(day, (h ?? 0) * 60 + (m ?? 0), zone).toISOString();
  };

  it("a time the clocks skip falls as far after the change as it was into the hour skipped", () => {
    // London, 28 March 2027: 01:00 GMT becomes 02:00 BST; 01:30 is 02:30 BST.
    expect(at("2027-03-28", "01:30", "Europe/London")).toBe("2027-03-28T01:30:00.000Z");
    // New York, 14 March 2027: 02:00 EST becomes 03:00 EDT; 02:30 is 03:30 EDT, never 01:30 EST (before its time).
    expect(at("2027-03-14", "02:30", "America/New_York")).toBe("2027-03-14T07:30:00.000Z");
  });

  it("a time the clocks show twice is its first showing", () => {
    // London, 31 October 2027: 02:00 BST becomes 01:00 GMT; 01:30 is first shown at 00:30 UTC (BST).
    expect(at("2027-10-31", "01:30", "Europe/London")).toBe("2027-10-31T00:30:00.000Z");
    // New York, 7 November 2027: 02:00 EDT becomes 01:00 EST; 01:30 is first shown at 05:30 UTC (EDT).
    expect(at("2027-11-07", "01:30", "America/New_York")).toBe("2027-11-07T05:30:00.000Z");
  });

  it("leaves every other time of those days, and of Lagos (no change), as the wall clock shows it", () => {
    expect(at("2027-10-31", "00:30", "Europe/London")).toBe("2027-10-30T23:30:00.000Z");
    expect(at("2027-10-31", "02:30", "Europe/London")).toBe("2027-10-31T02:30:00.000Z");
    expect(at("2027-03-28", "00:59", "Europe/London")).toBe("2027-03-28T00:59:00.000Z");
    expect(at("2027-03-28", "02:00", "Europe/London")).toBe("2027-03-28T01:00:00.000Z");
    expect(at("2027-03-14", "09:00", "America/New_York")).toBe("2027-03-14T13:00:00.000Z");
    expect(at("2026-11-24", "09:00", "Africa/Lagos")).toBe("2026-11-24T08:00:00.000Z");
  });
});
