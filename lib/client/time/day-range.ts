// A list's from/to days and its quick ranges (payments, requests): one rule for reading them from the URL, and days
// in TIMEZONE, so "this week" is the team's week wherever the server runs.
import { z } from "zod";

import { addDays, endOfDay, mondayOf, monthStart, startOfDay } from "./zone";

/** A "YYYY-MM-DD" day from a URL or a date input; anything else (2024-02-30, "yesterday", "") is no filter. */
export const dayParamSchema = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/)
  // A real calendar day: Date.parse would quietly turn 2024-02-30 into 1 March.
  .refine((d) => {
    const t = Date.parse(`${d}T00:00:00Z`);
    return !Number.isNaN(t) && new Date(t).toISOString().slice(0, 10) === d;
  })
  .optional()
  .catch(undefined);

/** Both ends inclusive, each a day in the time zone; either may be open. */
export interface DayRange {
  from?: string;
  to?: string;
}

/** The range's days as instants in `timeZone`: from the start of `from` up to (not including) the end of `to`. */
export function instantsOfDays(range: DayRange, timeZone: string): { from?: Date; to?: Date } {
  return { from: range.from ? startOfDay(range.from, timeZone) : undefined, to: range.to ? endOfDay(range.to, timeZone) : undefined };
}

export type QuickRangeKey = "today" | "week" | "month" | "last-month";

export interface QuickRange {
  key: QuickRangeKey;
  label: string;
  from: string;
  to: string;
}

/**
 * The quick ranges on `today` (the day now in TIMEZONE): today, this week (Monday to Sunday), this month and last
 * month, each whole calendar periods, so a shared link reads the same all period long.
 */
export function quickRanges(today: string): QuickRange[] {
  const monday = mondayOf(today);
  const thisMonth = monthStart(today);
  const lastMonth = monthStart(today, -1);
  return [
    { key: "today", label: "Today", from: today, to: today },
    { key: "week", label: "This week", from: monday, to: addDays(monday, 6) },
    { key: "month", label: "This month", from: thisMonth, to: addDays(monthStart(today, 1), -1) },
    { key: "last-month", label: "Last month", from: lastMonth, to: addDays(thisMonth, -1) },
  ];
}

/** The quick range the filter's days are exactly, if any (the one shown as current). */
export function currentQuickRange(range: DayRange, today: string): QuickRangeKey | null {
  return quickRanges(today).find((r) => r.from === range.from && r.to === range.to)?.key ?? null;
}
