"use client";

import { useQuery } from "@tanstack/react-query";

import { Card } from "@/components/ui/card";
import { ErrorPanel } from "@/components/ui/error-panel";
import { Skeleton } from "@/components/ui/skeleton";
import { TextLink } from "@/components/ui/text-link";
import { formatMajor, koboToNaira, nairaToKobo } from "@/lib/client/money";
import { deskQuery } from "@/lib/client/query/options";
import type { DeskTotals, PeriodTotals } from "@/lib/payments/desk";

// The overview's money panel (issue 21 "the daily desk"): what came in today, this week and this month, in the
// business's days (TIMEZONE), and what is still asked for. Live: payment.recorded and request.updated refetch it.

/** What the payers paid, before fees: settled plus fees, in exact kobo (the day book's gross). */
function paidOf(totals: PeriodTotals): string {
  const settled = nairaToKobo(totals.settled) ?? 0n;
  const fees = nairaToKobo(totals.fees) ?? 0n;
  return koboToNaira(settled + fees);
}

function Period({ id, title, totals, to }: { id: string; title: string; totals: PeriodTotals; to: string }) {
  const count = `${totals.count.toLocaleString("en")} payment${totals.count === 1 ? "" : "s"}`;
  return (
    <Card as="li" className="p-4 shadow-sm" data-testid={`desk-${id}`}>
      <h3 className="text-sm font-medium text-slate-700">{title}</h3>
      <p className="mt-1 text-xl font-semibold tabular-nums" data-testid="desk-settled">
        {formatMajor("NGN", totals.settled)}
      </p>
      <p className="text-xs text-slate-600">collected (settled, after fees)</p>
      <dl className="mt-2 grid grid-cols-2 gap-x-2 text-xs text-slate-700">
        <dt>Paid</dt>
        <dd className="text-right tabular-nums" data-testid="desk-gross">
          {formatMajor("NGN", paidOf(totals))}
        </dd>
        <dt>Fees</dt>
        <dd className="text-right tabular-nums" data-testid="desk-fees">
          {formatMajor("NGN", totals.fees)}
        </dd>
      </dl>
      <TextLink className="mt-2 inline-block text-xs font-medium" href={`/payments?from=${totals.fromDay}&to=${to}`}>
        {count}
      </TextLink>
    </Card>
  );
}

export function DeskPanelView({ desk }: { desk: DeskTotals }) {
  const outstanding = `${desk.outstanding.count.toLocaleString("en")} request${desk.outstanding.count === 1 ? "" : "s"} waiting for an answer`;
  return (
    <section aria-labelledby="desk-heading" className="space-y-3">
      <h2 id="desk-heading" className="text-lg font-semibold">
        Money in
      </h2>
      <ul className="grid gap-3 sm:grid-cols-2 lg:grid-cols-4">
        <Period id="today" title="Today" totals={desk.today} to={desk.day} />
        <Period id="week" title="This week" totals={desk.week} to={desk.day} />
        <Period id="month" title="This month" totals={desk.month} to={desk.day} />
        <Card as="li" className="p-4 shadow-sm" data-testid="desk-outstanding">
          <h3 className="text-sm font-medium text-slate-700">Outstanding</h3>
          <p className="mt-1 text-xl font-semibold tabular-nums" data-testid="desk-outstanding-amount">
            {formatMajor("NGN", desk.outstanding.amount)}
          </p>
          <p className="text-xs text-slate-600">asked, not yet answered</p>
          <TextLink className="mt-2 inline-block text-xs font-medium" href="/requests?status=pending">
            {outstanding}
          </TextLink>
        </Card>
      </ul>
    </section>
  );
}

export function DeskPanel() {
  const query = useQuery(deskQuery());
  if (query.isError) return <ErrorPanel title="Today's money could not be loaded" message={`${query.error.message} Reload the page to try again.`} />;
  if (query.isPending)
    return (
      <div className="grid gap-3 sm:grid-cols-2 lg:grid-cols-4" aria-busy="true" aria-label="Loading today's money">
        {[0, 1, 2, 3].map((i) => (
          <Skeleton key={i} className="h-36" />
        ))}
      </div>
    );
  return <DeskPanelView desk={query.data} />;
}
