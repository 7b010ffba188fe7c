import { describe, expect, it } from "vitest";

import { describe as describeAsk, dueAt, dueDay, nextPeriod, nextRun, periodOf, periodsDue, periodStart, recentPeriods, type Schedule } from "./schedule";

// A plan's clock on injected instants: keys across month and year ends, the 28-day rule, quarters and Lagos time.

const LAGOS = "Africa/Lagos";
const monthly: Schedule = { frequency: "monthly", day: 28, sendAt: "09:00", startsOn: "2026-01-01", endsOn: null, timeZone: LAGOS };
const weekly: Schedule = { frequency: "weekly", day: 1, sendAt: "00:30", startsOn: "2026-11-01", endsOn: null, timeZone: LAGOS };
const quarterly: Schedule = { frequency: "quarterly", day: 15, sendAt: "12:00", startsOn: "2026-01-01", endsOn: "2027-06-30", timeZone: LAGOS };

describe("period keys", () => {
  it("names ISO weeks, months and quarters, across a year end", () => {
    expect(periodOf("weekly", "2026-11-25")).toBe("2026-W48");
    // 2026 has 53 ISO weeks: its last days and 1–3 January 2027 are week 53 of 2026.
    expect(periodOf("weekly", "2026-12-31")).toBe("2026-W53");
    expect(periodOf("weekly", "2027-01-03")).toBe("2026-W53");
    expect(periodOf("weekly", "2027-01-04")).toBe("2027-W01");
    // 29 December 2025 is a Monday in week 1 of 2026.
    expect(periodOf("weekly", "2025-12-29")).toBe("2026-W01");
    expect(periodOf("monthly", "2026-02-28")).toBe("2026-02");
    expect(periodOf("quarterly", "2026-03-31")).toBe("2026-Q1");
    expect(periodOf("quarterly", "2026-04-01")).toBe("2026-Q2");
    expect(periodOf("quarterly", "2026-12-31")).toBe("2026-Q4");
  });

  it("reads a key back to its first day, and refuses keys that are no period", () => {
    expect(periodStart("weekly", "2026-W48")).toBe("2026-11-23");
    expect(periodStart("weekly", "2026-W53")).toBe("2026-12-28");
    expect(periodStart("weekly", "2027-W53")).toBeNull();
    expect(periodStart("monthly", "2026-13")).toBeNull();
    expect(periodStart("quarterly", "2026-Q4")).toBe("2026-10-01");
    expect(periodStart("quarterly", "2026-Q5")).toBeNull();
    expect(periodStart("monthly", "2026-W48")).toBeNull();
  });

  it("steps to the next period across month, quarter and year ends", () => {
    expect(nextPeriod("monthly", "2026-12")).toBe("2027-01");
    expect(nextPeriod("quarterly", "2026-Q4")).toBe("2027-Q1");
    expect(nextPeriod("weekly", "2026-W53")).toBe("2027-W01");
    expect(nextPeriod("weekly", "2026-W52")).toBe("2026-W53");
  });
});

describe("due days and instants", () => {
  it("keeps day 28 in every month, February included (the 28-day rule)", () => {
    expect(dueDay(monthly, "2026-02")).toBe("2026-02-28");
    expect(dueDay(monthly, "2027-02")).toBe("2027-02-28");
    expect(dueDay(quarterly, "2026-Q1")).toBe("2026-01-15");
    expect(dueDay(quarterly, "2026-Q4")).toBe("2026-10-15");
    // Weekly day 1 is Monday; day 7 Sunday.
    expect(dueDay(weekly, "2026-W48")).toBe("2026-11-23");
    expect(dueDay({ frequency: "weekly", day: 7 }, "2026-W48")).toBe("2026-11-29");
  });

  it("is due at the send time on Lagos's wall clock, stored as UTC", () => {
    expect(dueAt(monthly, "2026-11").toISOString()).toBe("2026-11-28T08:00:00.000Z");
    // 00:30 in Lagos is 23:30 UTC on the day before.
    expect(dueAt(weekly, "2026-W48").toISOString()).toBe("2026-11-22T23:30:00.000Z");
    expect(dueAt({ ...monthly, timeZone: "Europe/London" }, "2026-07").toISOString()).toBe("2026-07-28T08:00:00.000Z");
  });
});

describe("the clock", () => {
  it("gives the next run from an injected now, across a month end and in Lagos time", () => {
    expect(nextRun(monthly, new Date("2026-11-28T07:59:59Z"))).toEqual({ period: "2026-11", dueAt: new Date("2026-11-28T08:00:00Z") });
    expect(nextRun(monthly, new Date("2026-11-28T08:00:00Z"))).toEqual({ period: "2026-12", dueAt: new Date("2026-12-28T08:00:00Z") });
    // Sunday 23:40 UTC is already Monday 00:40 in Lagos: this week's 00:30 has passed.
    expect(nextRun(weekly, new Date("2026-11-22T23:40:00Z"))?.period).toBe("2026-W49");
    expect(nextRun(weekly, new Date("2026-11-22T23:20:00Z"))?.period).toBe("2026-W48");
    // Before the start: the first period due on or after it.
    expect(nextRun({ ...monthly, startsOn: "2027-03-01" }, new Date("2026-11-01T00:00:00Z"))?.period).toBe("2027-03");
    // Past the end: none.
    expect(nextRun(quarterly, new Date("2027-04-15T10:59:59Z"))?.period).toBe("2027-Q2");
    expect(nextRun(quarterly, new Date("2027-04-15T11:00:00Z"))).toBeNull();
  });

  it("lists the periods due in a window, oldest first, and none before the start or after the end", () => {
    const due = periodsDue(monthly, new Date("2026-08-28T08:00:00Z"), new Date("2026-11-28T08:00:00Z")).map((d) => d.period);
    expect(due).toEqual(["2026-09", "2026-10", "2026-11"]);
    expect(periodsDue({ ...monthly, startsOn: "2026-10-29" }, new Date("2026-08-01T00:00:00Z"), new Date("2026-12-01T00:00:00Z")).map((d) => d.period)).toEqual(
      ["2026-11"],
    );
    expect(periodsDue(quarterly, new Date("2027-01-01T00:00:00Z"), new Date("2028-01-01T00:00:00Z")).map((d) => d.period)).toEqual(["2027-Q1", "2027-Q2"]);
    // Weekly across the year end, 53 weeks in 2026.
    expect(periodsDue(weekly, new Date("2026-12-20T00:00:00Z"), new Date("2027-01-12T00:00:00Z")).map((d) => d.period)).toEqual([
      "2026-W52",
      "2026-W53",
      "2027-W01",
      "2027-W02",
    ]);
  });

  it("gives the board's last periods up to now", () => {
    expect(recentPeriods(monthly, new Date("2026-11-25T00:00:00Z"), 3).map((d) => d.period)).toEqual(["2026-08", "2026-09", "2026-10"]);
    expect(recentPeriods(monthly, new Date("2026-02-01T00:00:00Z"), 12).map((d) => d.period)).toEqual(["2026-01"]);
  });

  it("fills {period} into the template, or the member's own description", () => {
    expect(describeAsk("{period} estate dues", "", "2026-11")).toBe("2026-11 estate dues");
    expect(describeAsk("{period} estate dues", "Flat 4 service charge {period}", "2026-Q4")).toBe("Flat 4 service charge 2026-Q4");
  });
});
