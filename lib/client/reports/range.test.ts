import { describe, expect, it } from "vitest";

import { dayBookFormSchema } from "./daily";
import { MAX_REPORT_DAYS, dayBookRange, dayBookSearch, daysInRange } from "./range";

const TODAY = "2026-11-25";

describe("dayBookRange: the days the page, its query and GET /api/reports/daily use", () => {
  it("is this month so far with no days given", () => {
    expect(dayBookRange({}, TODAY)).toEqual({ ok: true, from: "2026-11-01", to: TODAY });
  });

  it("fills the missing end: the month of `to`, or up to today (or the day itself, when it is still to come)", () => {
    expect(dayBookRange({ to: "2026-10-15" }, TODAY)).toEqual({ ok: true, from: "2026-10-01", to: "2026-10-15" });
    expect(dayBookRange({ from: "2026-11-10" }, TODAY)).toEqual({ ok: true, from: "2026-11-10", to: TODAY });
    expect(dayBookRange({ from: "2026-12-03" }, TODAY)).toEqual({ ok: true, from: "2026-12-03", to: "2026-12-03" });
  });

  it("takes a year of days, leap day included, and refuses one more with the count and what to do", () => {
    expect(dayBookRange({ from: "2024-01-01", to: "2024-12-31" }, TODAY)).toMatchObject({ ok: true });
    expect(daysInRange("2024-01-01", "2024-12-31")).toBe(MAX_REPORT_DAYS);
    const refused = dayBookRange({ from: "2024-01-01", to: "2025-01-01" }, TODAY);
    expect(refused).toMatchObject({ ok: false, field: "to", fieldMessage: "At most 366 days" });
    expect(refused.ok ? "" : refused.message).toBe("That is 367 days; the day book shows at most 366 at once. Choose a shorter range.");
  });

  it("refuses a last day before the first", () => {
    expect(dayBookRange({ from: "2026-11-10", to: "2026-11-09" }, TODAY)).toMatchObject({
      ok: false,
      message: "The last day is before the first; swap them.",
    });
  });

  it("counts days across a change of clocks as calendar days", () => {
    expect(daysInRange("2026-03-28", "2026-03-30")).toBe(3);
    expect(daysInRange(TODAY, TODAY)).toBe(1);
  });
});

describe("dayBookSearch", () => {
  it("leaves out what is not given and adds the extras", () => {
    expect(dayBookSearch({})).toBe("");
    expect(dayBookSearch({ from: "2026-11-01" })).toBe("?from=2026-11-01");
    expect(dayBookSearch({ from: "2026-11-01", to: "2026-11-25" }, { format: "csv" })).toBe("?from=2026-11-01&to=2026-11-25&format=csv");
  });
});

describe("dayBookFormSchema: the pickers refuse what the route would", () => {
  it("passes a range, treats an empty picker as the default, and puts a refusal on the last day", () => {
    expect(dayBookFormSchema.parse({ from: "2026-11-01", to: "2026-11-25" })).toEqual({ from: "2026-11-01", to: "2026-11-25" });
    expect(dayBookFormSchema.parse({ from: "", to: "" })).toEqual({ from: undefined, to: undefined });
    const swapped = dayBookFormSchema.safeParse({ from: "2026-11-25", to: "2026-11-01" });
    expect(swapped.success).toBe(false);
    expect(swapped.error?.issues.map((i) => [i.path.join("."), i.message])).toEqual([["to", "The last day is before the first"]]);
    const long = dayBookFormSchema.safeParse({ from: "2025-01-01", to: "2026-02-01" });
    expect(long.error?.issues.map((i) => i.message)).toEqual(["At most 366 days"]);
  });
});
