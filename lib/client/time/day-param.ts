// The from/to days of a list's URL, read with zod: apart from the quick ranges (day-range.ts), which every list page
// loads, so those carry no zod into the page's first load.
import { z } from "zod";

/** The days the app takes from people, both included: every day range it loops over is bounded by them. */
export const FIRST_DAY = "2000-01-01";
export const LAST_DAY = "2100-12-31";

/** A real calendar day ("YYYY-MM-DD") from FIRST_DAY to LAST_DAY: Date.parse would quietly turn 2024-02-30 into 1 March. */
export function isBoundedDay(d: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(d) || d < FIRST_DAY || d > LAST_DAY) return false;
  const t = Date.parse(`${d}T00:00:00Z`);
  return !Number.isNaN(t) && new Date(t).toISOString().slice(0, 10) === d;
}

/** A "YYYY-MM-DD" day from a URL or a date input; anything else (2024-02-30, "yesterday", "", 9999-12-31) is no filter. */
export const dayParamSchema = z.string().refine(isBoundedDay).optional().catch(undefined);

/**
 * The same day for an API's query, strict: absent or empty is no day, anything else must be a real YYYY-MM-DD day
 * (a 422 naming the field, not a quietly dropped filter; docs/architecture.md "Closing the books").
 */
export const strictDayParamSchema = z.preprocess(
  (v) => (v === "" ? undefined : v),
  z
    .string()
    .superRefine((d, ctx) => {
      if (!/^\d{4}-\d{2}-\d{2}$/.test(d)) ctx.addIssue({ code: "custom", message: "Give a day as YYYY-MM-DD, such as 2026-11-24" });
      else if (d < FIRST_DAY || d > LAST_DAY) ctx.addIssue({ code: "custom", message: `Give a day from ${FIRST_DAY} to ${LAST_DAY}` });
      else if (!isBoundedDay(d)) ctx.addIssue({ code: "custom", message: "No such day in the calendar" });
    })
    .optional(),
);
