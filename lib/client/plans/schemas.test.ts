import { flattenError } from "zod";
import { describe, expect, it } from "vitest";

import { planFieldsSchema, planPatchSchema } from "./schemas";

// The plan form's and POST /api/plans's one schema: each bad field named on its own (the 422's fieldErrors).

const good = {
  name: "Estate dues",
  descriptionTemplate: "{period} estate dues",
  frequency: "monthly",
  day: "28",
  sendAt: "09:00",
  startsOn: "2026-12-01",
  endsOn: "",
};

const errorsOf = (input: Record<string, unknown>) => {
  const parsed = planFieldsSchema.safeParse(input);
  return parsed.success ? {} : flattenError(parsed.error).fieldErrors;
};

describe("plan fields", () => {
  it("takes a form's strings: the day as a number, a blank end as none, no time zone as the team's", () => {
    const parsed = planFieldsSchema.parse(good);
    expect(parsed).toMatchObject({ day: 28, endsOn: null });
    expect([parsed.timeZone, parsed.chaseInclude]).toEqual([undefined, undefined]);
    expect(planFieldsSchema.parse({ ...good, timeZone: "Europe/London", chaseAfterHours: "48", chaseTimes: "2", chaseInclude: ["declined"] })).toMatchObject({
      timeZone: "Europe/London",
      chaseAfterHours: 48,
      chaseTimes: 2,
      chaseInclude: ["declined"],
    });
  });

  it("names the field at fault: a day outside its frequency's range, an end before the start, a bad time, an unknown zone", () => {
    expect(Object.keys(errorsOf({ ...good, day: "31" }))).toEqual(["day"]);
    expect(errorsOf({ ...good, frequency: "weekly", day: "8" }).day?.[0]).toBe("For a weekly plan, choose a day from 1 (Monday) to 7 (Sunday)");
    expect(errorsOf({ ...good, day: "0" }).day?.[0]).toBe("For a monthly plan, choose a day from 1 to 28 (every month has it)");
    expect(Object.keys(errorsOf({ ...good, endsOn: "2026-11-30" }))).toEqual(["endsOn"]);
    expect(Object.keys(errorsOf({ ...good, sendAt: "25:00" }))).toEqual(["sendAt"]);
    expect(Object.keys(errorsOf({ ...good, startsOn: "2026-02-30" }))).toEqual(["startsOn"]);
    expect(errorsOf({ ...good, timeZone: "Mars/Olympus" }).timeZone?.[0]).toBe("Unknown time zone: use an IANA name such as Africa/Lagos");
    expect(Object.keys(errorsOf({ ...good, chaseAfterHours: "24" })).sort()).toEqual(["chaseInclude", "chaseTimes"]);
    expect(Object.keys(errorsOf({ ...good, descriptionTemplate: `${"x".repeat(135)}{period}` }))).toEqual(["descriptionTemplate"]);
  });

  it("refuses a start or end after 2100-12-31 (2999-12-30, 2101-01-01) or before 2000-01-01, naming the field: the schedule knows those years only", () => {
    const bound = (what: string) => `Enter the ${what} between 2000-01-01 and 2100-12-31`;
    for (const startsOn of ["2999-12-30", "2101-01-01", "1999-12-31"]) {
      expect(errorsOf({ ...good, frequency: "weekly", day: "1", startsOn }), startsOn).toEqual({ startsOn: [bound("start date")] });
      expect(errorsOf({ ...good, startsOn }), startsOn).toEqual({ startsOn: [bound("start date")] });
    }
    expect(errorsOf({ ...good, endsOn: "2101-01-01" })).toEqual({ endsOn: [bound("end date")] });
    // The last days inside the bound are taken.
    expect(planFieldsSchema.safeParse({ ...good, startsOn: "2100-12-31" }).success).toBe(true);
    expect(planFieldsSchema.safeParse({ ...good, startsOn: "2000-01-01", endsOn: "2100-12-31" }).success).toBe(true);
    // A schedule change is held to the same bound.
    const schedule = { frequency: "weekly", day: 1, sendAt: "09:00", endsOn: null };
    expect(planPatchSchema.safeParse({ schedule: { ...schedule, startsOn: "2999-12-30" } }).success).toBe(false);
    expect(planPatchSchema.safeParse({ schedule: { ...schedule, startsOn: "2026-12-07" } }).success).toBe(true);
  });

  it("takes one change at a time in a PATCH", () => {
    expect(planPatchSchema.safeParse({ status: "pause" }).success).toBe(true);
    expect(planPatchSchema.safeParse({ status: "pause", members: { add: [] } }).success).toBe(false);
    expect(planPatchSchema.safeParse({ members: { add: [], remove: [], change: [] } }).success).toBe(false);
    expect(planPatchSchema.safeParse({ schedule: { frequency: "weekly", day: 9, sendAt: "09:00", startsOn: "2026-12-01", endsOn: null } }).success).toBe(false);
  });

  it("holds an added member's own description to the request form's rules, with {period} filled in", () => {
    const add = (description: string) => planPatchSchema.safeParse({ members: { add: [{ tag: "ada.obi", amount: "10", description }] } });
    expect(add("").success).toBe(true);
    expect(add("{period} gate levy").success).toBe(true);
    expect(add("x".repeat(141)).error?.issues[0]?.message).toBe("At most 140 characters");
    expect(add(`${"x".repeat(135)}{period}`).success).toBe(false);
    expect(add("Levy\tNovember").error?.issues[0]?.message).toBe("Remove line breaks and control characters");
  });
});
