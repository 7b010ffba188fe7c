import { HydrationBoundary, dehydrate } from "@tanstack/react-query";

import { DayBookReport } from "@/components/reports/day-book";
import { requirePageStaff } from "@/lib/auth/page-guard";
import { keys } from "@/lib/client/query/options";
import { dayBookQuerySchema } from "@/lib/client/reports/daily";
import { dayBookRange } from "@/lib/client/reports/range";
import { dayOf } from "@/lib/client/time/zone";
import { getConfig } from "@/lib/config";
import { getDb } from "@/lib/db";
import { getServerQueryClient } from "@/lib/query/server-client";
import { readDayBook } from "@/lib/reports/daily";
import { firstActivityDay } from "@/lib/reports/first-activity";

export const metadata = { title: "Day book" };

type Search = Promise<Record<string, string | string[] | undefined>>;

// The day book (docs/architecture.md "Closing the books"), prefetched with the read GET /api/reports/daily uses; its days stay in the URL, read and
// checked by the route's rule (this month so far by default; a refused range shows why, with nothing read).
export default async function ReportsPage({ searchParams }: { searchParams: Search }) {
  await requirePageStaff("reports.read", "/reports");
  const raw = await searchParams;
  const one = (name: string) => {
    const value = raw[name];
    return Array.isArray(value) ? value[0] : value;
  };
  const { from, to } = dayBookQuerySchema.parse({ from: one("from") || undefined, to: one("to") || undefined });
  const { timeZone } = getConfig();
  const today = dayOf(new Date(), timeZone);
  const db = await getDb();
  const range = dayBookRange({ from, to }, today, from || to ? null : await firstActivityDay(db, timeZone));
  const client = getServerQueryClient();
  if (range.ok) {
    await client.prefetchQuery({ queryKey: keys.dayBook(range), queryFn: () => readDayBook(db, range.from, range.to, timeZone) });
  }
  return (
    <div className="space-y-4">
      <h1 className="text-2xl font-semibold">Day book</h1>
      <p className="text-sm text-slate-700">
        Each day in {timeZone} time: the requests sent and answered, the payments received and the main wallet&apos;s first and last balance reading.
        Unexplained is the balance&apos;s change less what the payments received between those readings settled.
      </p>
      <HydrationBoundary state={dehydrate(client)}>
        <DayBookReport asked={{ from, to }} range={range} today={today} />
      </HydrationBoundary>
    </div>
  );
}
