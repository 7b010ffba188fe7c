// A list's from/to days and its quick ranges (payments, requests): one rule for reading them from the URL, and days
// in TIMEZONE, so "this week" is the team's week wherever the server runs.
import { addDays, endOfDay, mondayOf, monthStart, startOfDay } from "./zone";

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
