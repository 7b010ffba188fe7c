import { describe, expect, it } from "vitest";

import { dayParamSchema } from "./day-param";
import { currentQuickRange, instantsOfDays, quickRanges } from "./day-range";
import { dayOf } from "./zone";

const byKey = (today: string) => Object.fromEntries(quickRanges(today).map((r) => [r.key, [r.from, r.to]]));

describe("quick ranges", () => {
  it("on a Wednesday: today, Monday to Sunday, the calendar month and the one before", () => {
    expect(byKey("2026-03-11")).toEqual({
      today: ["2026-03-11", "2026-03-11"],
      week: ["2026-03-09", "2026-03-15"],
      month: ["2026-03-01", "2026-03-31"],
      "last-month": ["2026-02-01", "2026-02-28"],
    });
  });

  it("on a Sunday the week began six days ago; in January last month is December; leap Februaries end on the 29th", () => {
    expect(byKey("2026-03-15").week).toEqual(["2026-03-09", "2026-03-15"]);
    expect(byKey("2026-03-09").week).toEqual(["2026-03-09", "2026-03-15"]);
    expect(byKey("2026-01-02")["last-month"]).toEqual(["2025-12-01", "2025-12-31"]);
    expect(byKey("2024-03-31")["last-month"]).toEqual(["2024-02-01", "2024-02-29"]);
    expect(byKey("2024-02-10").month).toEqual(["2024-02-01", "2024-02-29"]);
  });

  it("'today' is the day in TIMEZONE: at 23:30 UTC on the 31st it is already April in Lagos", () => {
    const now = new Date("2026-03-31T23:30:00Z");
    expect(byKey(dayOf(now, "Africa/Lagos")).month).toEqual(["2026-04-01", "2026-04-30"]);
    expect(byKey(dayOf(now, "UTC")).month).toEqual(["2026-03-01", "2026-03-31"]);
  });

  it("marks the range in view, and none for any other range", () => {
    expect(currentQuickRange({ from: "2026-03-01", to: "2026-03-31" }, "2026-03-11")).toBe("month");
    expect(currentQuickRange({ from: "2026-03-11", to: "2026-03-11" }, "2026-03-11")).toBe("today");
    expect(currentQuickRange({ from: "2026-03-01", to: "2026-03-30" }, "2026-03-11")).toBeNull();
    expect(currentQuickRange({}, "2026-03-11")).toBeNull();
  });
});

describe("a filter's days", () => {
  it("reads real calendar days only", () => {
    expect(dayParamSchema.parse("2026-03-11")).toBe("2026-03-11");
    expect(dayParamSchema.parse("2024-02-30")).toBeUndefined();
    expect(dayParamSchema.parse("")).toBeUndefined();
    expect(dayParamSchema.parse("11/03/2026")).toBeUndefined();
  });

  it("are whole days in the zone: a Lagos day runs from 23:00 UTC the evening before", () => {
    const { from, to } = instantsOfDays({ from: "2026-03-01", to: "2026-03-31" }, "Africa/Lagos");
    expect(from?.toISOString()).toBe("2026-02-28T23:00:00.000Z");
    expect(to?.toISOString()).toBe("2026-03-31T23:00:00.000Z");
    expect(instantsOfDays({}, "Africa/Lagos")).toEqual({ from: undefined, to: undefined });
  });
});
