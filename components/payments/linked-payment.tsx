"use client";

import Link from "next/link";
import { useQuery } from "@tanstack/react-query";

import { formatMajor } from "@/lib/money";
import { paymentQuery } from "@/lib/queries";

import { paymentHref } from "./payments-table";
import { VerificationBadge } from "./verification-badge";

/** The payment a request was paid with; its own query, so verification shows up live. */
export function LinkedPayment({ uuid }: { uuid: string }) {
  const query = useQuery(paymentQuery(uuid));
  return (
    <div className="space-y-2 rounded-lg border border-slate-200 bg-white p-4 text-sm" data-testid="linked-payment" aria-live="polite">
      {query.isPending ? (
        <p className="text-slate-600">Loading payment {uuid}…</p>
      ) : query.isError ? (
        <p role="alert" className="text-red-800">
          Payment {uuid} could not be loaded: {query.error.message}
        </p>
      ) : (
        <dl className="grid grid-cols-2 gap-4 sm:grid-cols-3">
          <div>
            <dt className="text-xs text-slate-600">Amount</dt>
            <dd className="font-semibold tabular-nums">{formatMajor("NGN", query.data.amount)}</dd>
          </div>
          <div>
            <dt className="text-xs text-slate-600">Settled</dt>
            <dd className="tabular-nums">{formatMajor("NGN", query.data.settledAmount)}</dd>
          </div>
          <div>
            <dt className="text-xs text-slate-600">Verification</dt>
            <dd>
              <VerificationBadge state={query.data.verification} reason={query.data.verificationError} />
            </dd>
          </div>
        </dl>
      )}
      <p>
        <Link href={paymentHref(uuid)} className="text-brand-700 underline">
          Payment details <span className="font-mono text-xs break-all">{uuid}</span>
        </Link>
      </p>
    </div>
  );
}
