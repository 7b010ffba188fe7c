import { describe, expect, it } from "vitest";

import { dayBookRange } from "./range";

describe("the day book's default days", () => {
  it("start at the first day with activity when that is later this month, and at the month's start otherwise", () => {
    expect(dayBookRange({}, "2026-11-28", "2026-11-20")).toEqual({ ok: true, from: "2026-11-20", to: "2026-11-28" });
    expect(dayBookRange({}, "2026-11-28", "2026-10-02")).toEqual({ ok: true, from: "2026-11-01", to: "2026-11-28" });
    expect(dayBookRange({}, "2026-11-28", null)).toEqual({ ok: true, from: "2026-11-01", to: "2026-11-28" });
    // Days asked for are shown as asked.
    expect(dayBookRange({ from: "2026-11-01" }, "2026-11-28", "2026-11-20")).toEqual({ ok: true, from: "2026-11-01", to: "2026-11-28" });
    expect(dayBookRange({ to: "2026-11-25" }, "2026-11-28", "2026-11-20")).toEqual({ ok: true, from: "2026-11-01", to: "2026-11-25" });
  });
});
