import { describe, expect, it } from "vitest";

import { exportQuerySchema } from "@/lib/client/payments/export-query";
import { dayBookApiQuerySchema } from "@/lib/client/reports/daily";

import { dayParamSchema } from "./day-param";

// A page reads an unusable day in its URL as no day; the day book's and the export's routes refuse it, naming it.
describe("days in a query", () => {
  it("are read leniently by the pages", () => {
    expect(dayParamSchema.parse("2024-02-30")).toBeUndefined();
    expect(dayParamSchema.parse("2024-02-29")).toBe("2024-02-29");
  });

  it("are refused by the routes when malformed or not in the calendar, naming the field", () => {
    for (const schema of [dayBookApiQuerySchema, exportQuerySchema]) {
      const bad = schema.safeParse({ format: "xero", from: "24/11/2026", to: "2026-02-30" });
      expect(bad.error?.flatten().fieldErrors).toMatchObject({
        from: ["Give a day as YYYY-MM-DD, such as 2026-11-24"],
        to: ["No such day in the calendar"],
      });
      expect(schema.safeParse({ format: "xero", from: "", to: "2026-11-24" }).data).toMatchObject({ from: undefined, to: "2026-11-24" });
    }
  });

  it("take only days from 2000 to 2100: 9999-12-31 and 0001-01-01 are no day to a page and a 422 to a route", () => {
    for (const day of ["9999-12-31", "0001-01-01", "0000-01-01", "1999-12-31", "2101-01-01"]) expect(dayParamSchema.parse(day)).toBeUndefined();
    expect([dayParamSchema.parse("2000-01-01"), dayParamSchema.parse("2100-12-31")]).toEqual(["2000-01-01", "2100-12-31"]);
    for (const schema of [dayBookApiQuerySchema, exportQuerySchema]) {
      const far = schema.safeParse({ format: "xero", from: "9999-12-31", to: "0001-01-01" });
      expect(far.error?.flatten().fieldErrors).toMatchObject({
        from: ["Give a day from 2000-01-01 to 2100-12-31"],
        to: ["Give a day from 2000-01-01 to 2100-12-31"],
      });
    }
  });
});
