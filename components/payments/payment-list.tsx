"use client";

import { usePathname, useRouter } from "next/navigation";
import { useQuery } from "@tanstack/react-query";

import { ErrorPanel } from "@/components/ui/error-panel";
import { ListHeading } from "@/components/ui/list-heading";
import { Pager } from "@/components/ui/pager";
import { QuickRanges } from "@/components/ui/day-range";
import { paymentFilterSearch } from "@/lib/client/payments/filter-search";
import type { PaymentFilter } from "@/lib/client/payments/filters";
import { paymentListQuery } from "@/lib/client/query/options";

import { AccountingExport } from "./accounting-export";
import { PaymentFilters } from "./payment-filters";
import { PaymentTotalsView } from "./payment-totals";
import { PaymentsTable } from "./payments-table";

/** Filters and page live in the URL; live `payment.*` events refetch this query. */
export function PaymentList({ filter, today, canExport }: { filter: PaymentFilter; today: string; canExport: boolean }) {
  const router = useRouter();
  const pathname = usePathname();
  const query = useQuery(paymentListQuery(filter));
  const href = (f: PaymentFilter) => `${pathname}${paymentFilterSearch(f)}`;
  const pages = query.data ? Math.max(1, Math.ceil(query.data.total / query.data.pageSize)) : 1;
  // The whole filter, not this page: the CSV ignores paging.
  const csvHref = `/api/payments${paymentFilterSearch({ ...filter, page: 1 }, { format: "csv" })}`;

  return (
    <div className="space-y-4">
      <QuickRanges today={today} range={filter} href={(days) => href({ ...filter, ...days, page: 1 })} />
      <PaymentFilters key={paymentFilterSearch(filter)} filter={filter} clearHref={pathname} onApply={(next) => router.push(href(next))} />
      {query.isError ? (
        <ErrorPanel title="Payments could not be loaded" message={`${query.error.message} Reload the page to try again.`} />
      ) : (
        <>
          {query.data ? <PaymentTotalsView totals={query.data.totals} /> : null}
          <ListHeading title="Payments received" csvHref={csvHref} />
          {canExport ? <AccountingExport range={{ from: filter.from, to: filter.to }} /> : null}
          <PaymentsTable items={query.data?.items ?? []} empty={query.isPending ? "Loading…" : "No payments match."} />
        </>
      )}
      <Pager
        newerHref={filter.page > 1 ? href({ ...filter, page: filter.page - 1 }) : null}
        olderHref={filter.page < pages ? href({ ...filter, page: filter.page + 1 }) : null}
      >
        Page {filter.page} of {pages}
        {query.data ? ` · ${query.data.total} payment${query.data.total === 1 ? "" : "s"}` : ""}
      </Pager>
    </div>
  );
}
