import { z } from "zod";

import { dayParamSchema, strictDayParamSchema } from "@/lib/client/time/day-param";

import { dayBookRange } from "./range";

// The day book (docs/architecture.md "Closing the books"): what GET /api/reports/daily answers and the /reports page shows. Days are days in
// TIMEZONE; money is decimal naira strings; the balance is the main wallet's, from the readings of that day.

export { MAX_REPORT_DAYS } from "./range";

export interface DayEntry {
  date: string;
  requests: { sent: number; accepted: number; declined: number; failed: number };
  asked: string;
  acceptedAmount: string;
  payments: { count: number; gross: string; fees: string; settled: string; verified: number };
  balance: { first: string; last: string; change: string } | null;
  /** The balance's change less the settled amount of the payments received between its first and last reading. */
  unexplained: string | null;
  openExceptions: number;
}

export interface DayBook {
  from: string;
  to: string;
  days: DayEntry[];
  /** The sums over the days (balance: the first day's first reading to the last day's last). */
  total: Omit<DayEntry, "date" | "openExceptions"> & { date: "total" };
}

// The page reads its URL leniently (an unusable day is the default); the route refuses one with a 422 naming it.
export const dayBookQuerySchema = z.object({
  from: dayParamSchema,
  to: dayParamSchema,
  format: z.enum(["json", "csv"]).catch("json").default("json"),
});
export const dayBookApiQuerySchema = dayBookQuerySchema.extend({ from: strictDayParamSchema, to: strictDayParamSchema });

/**
 * The /reports page's day pickers: the route's rule for the days (an empty picker is the default), and when both are
 * given the route's refusals, shown beside the last day before anything is asked.
 */
export const dayBookFormSchema = z.object({ from: dayParamSchema, to: dayParamSchema }).superRefine(({ from, to }, ctx) => {
  if (!from || !to) return;
  const range = dayBookRange({ from, to }, to);
  if (!range.ok) ctx.addIssue({ code: "custom", path: [range.field], message: range.fieldMessage });
});
