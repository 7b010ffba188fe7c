import Link from "next/link";

import { formatTime } from "@/lib/format-time";
import { formatMajor } from "@/lib/money";
import type { PaymentView } from "@/lib/payments/view";

import { CustomerAvatar } from "./customer-avatar";
import { VerificationBadge } from "./verification-badge";

export function paymentHref(uuid: string): string {
  return `/payments/${encodeURIComponent(uuid)}`;
}

export function LinkedRequest({ requestId, note }: { requestId: string | null; note: string | null }) {
  if (requestId) {
    return (
      <Link href={`/requests/${encodeURIComponent(requestId)}`} className="text-brand-700 underline-offset-2 hover:underline">
        Request #{requestId}
      </Link>
    );
  }
  return (
    <span>
      unlinked
      {note ? <span className="block max-w-xs text-xs text-slate-600">{note}</span> : null}
    </span>
  );
}

const money = (amount: string) => formatMajor("NGN", amount);

export function PaymentsTable({ items, empty }: { items: PaymentView[]; empty: string }) {
  // Focusable so keyboard users can scroll it sideways on a narrow screen.
  return (
    <div className="overflow-x-auto rounded-lg border border-slate-200 bg-white" tabIndex={0} role="region" aria-label="Payments table">
      <table className="min-w-full divide-y divide-slate-200 text-sm">
        <caption className="sr-only">Payments received, newest first</caption>
        <thead className="bg-slate-50 text-left text-slate-700">
          <tr>
            <th scope="col" className="px-3 py-2 font-medium">Received</th>
            <th scope="col" className="px-3 py-2 font-medium">Customer</th>
            <th scope="col" className="px-3 py-2 font-medium">E-mail and phone</th>
            <th scope="col" className="px-3 py-2 text-right font-medium">Amount</th>
            <th scope="col" className="px-3 py-2 text-right font-medium">Fees</th>
            <th scope="col" className="px-3 py-2 text-right font-medium">Settled</th>
            <th scope="col" className="px-3 py-2 font-medium">Verification</th>
            <th scope="col" className="px-3 py-2 font-medium">Request</th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {items.length === 0 ? (
            <tr>
              <td colSpan={8} className="px-3 py-6 text-center text-slate-600">
                {empty}
              </td>
            </tr>
          ) : (
            items.map((p) => (
              <tr key={p.uuid} data-testid="payment-row" data-uuid={p.uuid}>
                <td className="px-3 py-2 whitespace-nowrap text-slate-700">{formatTime(p.receivedAt)}</td>
                <td className="px-3 py-2">
                  <div className="flex items-center gap-2">
                    <CustomerAvatar name={p.customer.name} url={p.customer.avatar} />
                    <div>
                      <Link href={paymentHref(p.uuid)} className="font-medium text-brand-700 underline-offset-2 hover:underline">
                        {p.customer.name}
                      </Link>
                      <div className="text-xs text-slate-600">@{p.customer.tag}</div>
                    </div>
                  </div>
                </td>
                <td className="px-3 py-2 text-xs">
                  <div className="break-all">{p.customer.email ?? "—"}</div>
                  <div className="whitespace-nowrap">{p.customer.phone ?? "—"}</div>
                </td>
                <td className="px-3 py-2 text-right whitespace-nowrap tabular-nums">{money(p.amount)}</td>
                <td className="px-3 py-2 text-right whitespace-nowrap tabular-nums">{money(p.fees)}</td>
                <td className="px-3 py-2 text-right whitespace-nowrap tabular-nums">{money(p.settledAmount)}</td>
                <td className="px-3 py-2">
                  <VerificationBadge state={p.verification} reason={p.verificationError} />
                </td>
                <td className="px-3 py-2">
                  <LinkedRequest requestId={p.requestId} note={p.linkNote} />
                </td>
              </tr>
            ))
          )}
        </tbody>
      </table>
    </div>
  );
}
