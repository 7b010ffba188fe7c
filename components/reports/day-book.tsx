"use client";

import { useQuery } from "@tanstack/react-query";
import { useRouter } from "next/navigation";

import { QuickRanges } from "@/components/ui/day-range";
import { ErrorPanel } from "@/components/ui/error-panel";
import { ListHeading } from "@/components/ui/list-heading";
import { TotalsGrid } from "@/components/ui/totals";
import { formatMajor } from "@/lib/client/money";
import { dayBookQuery } from "@/lib/client/query/options";
import { dayBookSearch, type DayBookRange } from "@/lib/client/reports/range";
import type { DayBook } from "@/lib/client/reports/daily";
import type { DayRange } from "@/lib/client/time/day-range";

import { DayBookChart } from "./day-book-chart";
import { DayBookFilters } from "./day-book-filters";
import { DayBookSkeleton } from "./day-book-skeleton";
import { DayBookTable } from "./day-book-table";
import { isZero } from "./format";

const href = (r: DayRange) => `/reports${dayBookSearch(r)}`;

/**
 * The days live in the URL (`asked`: what it says, `range`: with the defaults filled in and checked by the route's
 * rule); a refused range shows why instead of the book. Live events refetch the book (lib/client/live/effects.ts).
 */
export function DayBookReport({ asked, range, today }: { asked: DayRange; range: DayBookRange; today: string }) {
  const router = useRouter();
  const days = { from: range.from, to: range.to };
  return (
    <div className="space-y-4">
      <QuickRanges today={today} range={days} href={href} />
      <DayBookFilters
        key={dayBookSearch(asked)}
        range={days}
        clearHref={asked.from || asked.to ? "/reports" : null}
        onApply={(next) => router.push(href(next))}
      />
      {range.ok ? <DayBookDays from={range.from} to={range.to} today={today} /> : <ErrorPanel title="These days cannot be shown" message={range.message} />}
    </div>
  );
}

function DayBookDays({ from, to, today }: { from: string; to: string; today: string }) {
  const query = useQuery(dayBookQuery({ from, to }));
  if (query.isError) return <ErrorPanel title="The day book could not be loaded" message={query.error.message} />;
  if (query.isPending) return <DayBookSkeleton />;
  const book = query.data;
  return (
    <div className="space-y-4">
      <DayBookTotals book={book} />
      <DayBookChart book={book} />
      <ListHeading title="Day by day" csvHref={`/api/reports/daily${dayBookSearch({ from, to }, { format: "csv" })}`} />
      <DayBookTable book={book} today={today} />
    </div>
  );
}

function DayBookTotals({ book }: { book: DayBook }) {
  const { total } = book;
  const unexplained = total.unexplained;
  return (
    <TotalsGrid
      heading="Totals for these days"
      testId="day-book-totals"
      columns="grid-cols-2 sm:grid-cols-4"
      cards={[
        { label: "Payments", value: String(total.payments.count), note: `${total.payments.verified} verified`, testId: "total-payments" },
        {
          label: "Settled",
          value: formatMajor("NGN", total.payments.settled),
          note: `${formatMajor("NGN", total.payments.fees)} fees`,
          testId: "total-settled",
        },
        {
          label: "Balance change",
          value: total.balance ? formatMajor("NGN", total.balance.change) : "—",
          note: total.balance ? undefined : "no balance reading",
          testId: "total-balance-change",
        },
        {
          label: "Unexplained",
          value: unexplained === null ? "—" : formatMajor("NGN", unexplained),
          note: unexplained === null ? "no balance reading" : isZero(unexplained) ? "all explained by payments" : "needs a look",
          testId: "total-unexplained",
        },
      ]}
    />
  );
}
