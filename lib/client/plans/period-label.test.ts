import { describe, expect, it } from "vitest";

import { periodLabel } from "./period-label";

describe("period labels", () => {
  it("reads months, quarters and weeks as people say them, and leaves anything else as it is", () => {
    expect(["2026-11", "2027-01", "2026-Q4", "2026-Q1", "2026-W48", "2026-W01", "2026-13", "whatever"].map(periodLabel)).toEqual([
      "November 2026",
      "January 2027",
      "Q4 2026 (Oct–Dec)",
      "Q1 2026 (Jan–Mar)",
      "Week 48, 2026",
      "Week 1, 2026",
      "2026-13",
      "whatever",
    ]);
  });
});
