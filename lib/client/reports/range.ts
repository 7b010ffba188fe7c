// The day book's days (docs/architecture.md "Closing the books"): one rule for the range the page, its query and GET /api/reports/daily use. Zod-free,
// so the query options every page loads carry no zod (bench 4).
import type { DayRange } from "@/lib/client/time/day-range";
import { monthStart } from "@/lib/client/time/zone";

/** The most days the day book shows at once. */
export const MAX_REPORT_DAYS = 366;

const DAY_MS = 86_400_000;

/** The range's days, both ends included. */
export function daysInRange(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY_MS) + 1;
}

export type DayBookRange =
  | { ok: true; from: string; to: string }
  /** Refused (422 from the route): `message` says why and what to do, `field` is the day it is about. */
  | { ok: false; from: string; to: string; message: string; field: "to"; fieldMessage: string };

/**
 * The days asked for, with the defaults filled in: this month so far when neither is given (from the first day with
 * any activity, `firstActive`, when that is later in the month), the month `to` is in when only `to` is, and up to
 * today (or `from` itself, for a day still to come) when only `from` is. `today` is the day now in TIMEZONE. A last
 * day before the first, or more than MAX_REPORT_DAYS days, is refused.
 */
export function dayBookRange(asked: DayRange, today: string, firstActive: string | null = null): DayBookRange {
  const start = monthStart(asked.to ?? today);
  const from = asked.from ?? (!asked.to && firstActive && firstActive > start && firstActive <= today ? firstActive : start);
  const to = asked.to ?? (from > today ? from : today);
  if (to < from)
    return { ok: false, from, to, message: "The last day is before the first; swap them.", field: "to", fieldMessage: "The last day is before the first" };
  const days = daysInRange(from, to);
  if (days > MAX_REPORT_DAYS) {
    return {
      ok: false,
      from,
      to,
      message: `That is ${days} days; the day book shows at most ${MAX_REPORT_DAYS} at once. Choose a shorter range.`,
      field: "to",
      fieldMessage: `At most ${MAX_REPORT_DAYS} days`,
    };
  }
  return { ok: true, from, to };
}

/** The query string of a range (the page's URL and the route's), each end left out when not given. */
export function dayBookSearch(range: DayRange, extra: Record<string, string> = {}): string {
  const q = new URLSearchParams();
  if (range.from) q.set("from", range.from);
  if (range.to) q.set("to", range.to);
  for (const [k, v] of Object.entries(extra)) q.set(k, v);
  const text = q.toString();
  return text ? `?${text}` : "";
}
