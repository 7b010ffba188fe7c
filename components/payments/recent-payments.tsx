"use client";

import { PayerTag } from "@/components/payers/payer-tag";
import { useQuery } from "@tanstack/react-query";

import { LocalTime } from "@/components/ui/local-time";
import { Card } from "@/components/ui/card";
import { ErrorPanel } from "@/components/ui/error-panel";
import { formatMajor } from "@/lib/client/money";
import { RECENT_PAYMENTS_FILTER, paymentListQuery } from "@/lib/client/query/options";

import { verificationLabel } from "./verification-badge";

const SHOWN = 5;

/** The newest payments: the first page of the payments list (its query), live through `payment.*` events. */
export function RecentPayments() {
  const query = useQuery(paymentListQuery(RECENT_PAYMENTS_FILTER));
  const items = (query.data?.items ?? []).slice(0, SHOWN);
  return (
    <section aria-labelledby="recent-payments" className="space-y-2">
      <h2 id="recent-payments" className="text-lg font-semibold">
        Recent payments
      </h2>
      {query.isError ? (
        <ErrorPanel title="Payments could not be loaded" message={query.error.message} />
      ) : items.length === 0 ? (
        <Card as="p" className="px-3 py-6 text-center text-sm text-slate-600">
          {query.isPending ? "Loading…" : "No payments yet. They appear here when a customer accepts a request."}
        </Card>
      ) : (
        <Card as="ul" className="divide-y divide-slate-100 text-sm">
          {items.map((p) => (
            <li key={p.uuid} className="flex flex-wrap items-center justify-between gap-2 px-3 py-2" data-testid="recent-payment">
              <span className="flex min-w-0 flex-wrap items-baseline gap-x-1">
                {p.customer.name} <PayerTag tag={p.customer.tag} className="text-slate-600" />
              </span>
              <span className="tabular-nums">{formatMajor("NGN", p.settledAmount)}</span>
              <span className="text-xs text-slate-600">
                {verificationLabel(p.verification)} · <LocalTime iso={p.receivedAt} />
              </span>
            </li>
          ))}
        </Card>
      )}
    </section>
  );
}
