import "server-only";

import { and, eq, sql } from "drizzle-orm";

import type { Db } from "@/lib/db/client";
import { fundRequests } from "@/lib/db/schema";
import { dayOf, mondayOf, startOfDay } from "@/lib/client/time/zone";

import { totalsInRange, type Totals } from "./hour-totals";

// The daily desk's numbers (docs/architecture.md "The daily desk"): what came in today, this week and this month,
// and what is still asked for, with every day counted in the business's time zone (TIMEZONE).

export interface PeriodTotals extends Totals {
  /** The first instant counted (UTC ISO), the start of the period's first day in the time zone. */
  from: string;
  /** That first day ("YYYY-MM-DD" in the time zone), for links to the payments it counts. */
  fromDay: string;
}

export interface DeskTotals {
  /** The business's day now ("YYYY-MM-DD" in `timeZone`). */
  day: string;
  timeZone: string;
  today: PeriodTotals;
  /** From Monday of this week. */
  week: PeriodTotals;
  /** From the 1st of this month. */
  month: PeriodTotals;
  /** Requests the service still waits on a person for: how many and how much. */
  outstanding: { count: number; amount: string };
}

async function since(db: Db, day: string, timeZone: string, now: Date): Promise<PeriodTotals> {
  const from = startOfDay(day, timeZone);
  return { ...(await totalsInRange(db, { from }, now)), from: from.toISOString(), fromDay: day };
}

/** The desk's totals at `now`: money in (gross, fees, settled) per period, and the outstanding requests. */
export async function deskTotals(db: Db, timeZone: string, now = new Date()): Promise<DeskTotals> {
  const day = dayOf(now, timeZone);
  const [today, week, month, [outstanding]] = await Promise.all([
    since(db, day, timeZone, now),
    since(db, mondayOf(day), timeZone, now),
    since(db, `${day.slice(0, 8)}01`, timeZone, now),
    db
      .select({ count: sql<number>`count(*)::int`, amount: sql<string>`coalesce(sum(${fundRequests.amount}), 0)::numeric(20,2)::text` })
      .from(fundRequests)
      .where(and(eq(fundRequests.status, "pending"))),
  ]);
  return { day, timeZone, today, week, month, outstanding: { count: Number(outstanding?.count ?? 0), amount: outstanding?.amount ?? "0.00" } };
}
