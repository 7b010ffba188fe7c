"use client";

import Link from "next/link";
import { usePathname, useRouter } from "next/navigation";
import { useQuery } from "@tanstack/react-query";

import { ErrorPanel } from "@/components/ui/error-panel";
import { paymentFilterSearch, type PaymentFilter } from "@/lib/payments/filters";
import { paymentListQuery } from "@/lib/queries";

import { PaymentFilters } from "./payment-filters";
import { PaymentTotalsView } from "./payment-totals";
import { PaymentsTable } from "./payments-table";

/** Filters and page live in the URL; live `payment.*` events refetch this query. */
export function PaymentList({ filter }: { filter: PaymentFilter }) {
  const router = useRouter();
  const pathname = usePathname();
  const query = useQuery(paymentListQuery(filter));
  const href = (f: PaymentFilter) => `${pathname}${paymentFilterSearch(f)}`;
  const pages = query.data ? Math.max(1, Math.ceil(query.data.total / query.data.pageSize)) : 1;
  // The whole filter, not this page: the CSV ignores paging.
  const csvHref = `/api/payments${paymentFilterSearch({ ...filter, page: 1 }, { format: "csv" })}`;

  return (
    <div className="space-y-4">
      <PaymentFilters key={paymentFilterSearch(filter)} filter={filter} clearHref={pathname} onApply={(next) => router.push(href(next))} />
      {query.isError ? (
        <ErrorPanel title="Payments could not be loaded" message={`${query.error.message} Reload the page to try again.`} />
      ) : (
        <>
          {query.data ? <PaymentTotalsView totals={query.data.totals} /> : null}
          <div className="flex flex-wrap items-center justify-between gap-2">
            <h2 className="text-lg font-semibold">Payments received</h2>
            <a href={csvHref} download className="rounded-md bg-white px-3 py-1.5 text-sm font-medium text-slate-900 ring-1 ring-slate-300 hover:bg-slate-50">
              Download CSV
            </a>
          </div>
          <PaymentsTable items={query.data?.items ?? []} empty={query.isPending ? "Loading…" : "No payments match."} />
        </>
      )}
      <nav aria-label="Pages" className="flex flex-wrap items-center gap-3 text-sm">
        {filter.page > 1 ? (
          <Link href={href({ ...filter, page: filter.page - 1 })} className="underline">
            Newer
          </Link>
        ) : null}
        <span>
          Page {filter.page} of {pages}
          {query.data ? ` · ${query.data.total} payment${query.data.total === 1 ? "" : "s"}` : ""}
        </span>
        {filter.page < pages ? (
          <Link href={href({ ...filter, page: filter.page + 1 })} className="underline">
            Older
          </Link>
        ) : null}
      </nav>
    </div>
  );
}
