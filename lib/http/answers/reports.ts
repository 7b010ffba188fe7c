import "server-only";

import type { DayBook } from "@/lib/client/reports/daily";
import { dayBookRange } from "@/lib/client/reports/range";
import type { DayRange } from "@/lib/client/time/day-range";
import { dayOf } from "@/lib/client/time/zone";
import type { Db } from "@/lib/db/client";
import { unprocessable } from "@/lib/http/api-error";

import { readDayBook } from "@/lib/reports/daily";
import { firstActivityDay } from "@/lib/reports/first-activity";

/**
 * The day book of the days asked for, whichever door asked (GET /api/reports/daily, GET /api/v1/reports/daily): the
 * one rule for the range the /reports page uses too (lib/client/reports/range.ts), this month so far by default (from
 * the first day with any activity), and a range it refuses a 422 naming `to` (docs/architecture.md "Closing the books").
 */
export async function readAskedDayBook(db: Db, asked: DayRange, timeZone: string, now = new Date()): Promise<DayBook> {
  const range = dayBookRange(asked, dayOf(now, timeZone), asked.from || asked.to ? null : await firstActivityDay(db, timeZone));
  if (!range.ok) throw unprocessable(range.message, { fieldErrors: { [range.field]: [range.fieldMessage] }, formErrors: [] });
  return readDayBook(db, range.from, range.to, timeZone, now);
}
