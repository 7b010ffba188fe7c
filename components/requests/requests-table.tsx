import Link from "next/link";

import { formatTime } from "@/lib/format-time";
import { formatMajor } from "@/lib/money";
import type { FundRequestView } from "@/lib/requests/view";

import { StatusBadge } from "./status-badge";

export function requestHref(r: Pick<FundRequestView, "requestId" | "reference">): string {
  return `/requests/${encodeURIComponent(r.requestId ?? r.reference ?? "")}`;
}

export function RequestsTable({ items, empty, currency = "NGN" }: { items: FundRequestView[]; empty: string; currency?: string }) {
  return (
    // Focusable so keyboard users can scroll a table wider than the screen.
    <div className="overflow-x-auto rounded-lg border border-slate-200 bg-white" tabIndex={0} role="region" aria-label="Fund requests">
      <table className="min-w-full divide-y divide-slate-200 text-sm">
        <caption className="sr-only">Fund requests, newest first</caption>
        <thead className="bg-slate-50 text-left text-slate-700">
          <tr>
            <th scope="col" className="px-3 py-2 font-medium">To</th>
            <th scope="col" className="px-3 py-2 text-right font-medium">Amount</th>
            <th scope="col" className="px-3 py-2 font-medium">Status</th>
            <th scope="col" className="px-3 py-2 font-medium">Description</th>
            <th scope="col" className="px-3 py-2 font-medium">Sent by</th>
            <th scope="col" className="px-3 py-2 font-medium">Created</th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {items.length === 0 ? (
            <tr>
              <td colSpan={6} className="px-3 py-6 text-center text-slate-600">
                {empty}
              </td>
            </tr>
          ) : (
            items.map((r) => (
              <tr key={r.reference ?? r.requestId} data-testid="request-row" data-request-id={r.requestId ?? ""}>
                <td className="px-3 py-2">
                  <Link href={requestHref(r)} className="font-medium text-brand-700 underline-offset-2 hover:underline">
                    @{r.tag}
                  </Link>
                  {r.requestedSentTo?.name ? <div className="text-xs text-slate-600">{r.requestedSentTo.name}</div> : null}
                </td>
                <td className="px-3 py-2 text-right whitespace-nowrap tabular-nums">{formatMajor(currency, r.amount)}</td>
                <td className="px-3 py-2">
                  <StatusBadge status={r.status} />
                </td>
                <td className="max-w-xs truncate px-3 py-2" title={r.description}>
                  {r.description}
                </td>
                <td className="px-3 py-2">{r.createdBy?.name ?? "—"}</td>
                <td className="px-3 py-2 whitespace-nowrap text-slate-700">{formatTime(r.createdAt)}</td>
              </tr>
            ))
          )}
        </tbody>
      </table>
    </div>
  );
}
