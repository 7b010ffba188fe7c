"use client";

import { useQuery } from "@tanstack/react-query";

import { Card } from "@/components/ui/card";
import { Detail } from "@/components/ui/detail";
import { TextLink } from "@/components/ui/text-link";
import { formatMajor } from "@/lib/client/money";
import { paymentQuery } from "@/lib/client/query/options";

import { paymentHref } from "./payments-table";
import { VerificationBadge } from "./verification-badge";

/** The payment a request was paid with; its own query, so verification shows up live. */
export function LinkedPayment({ uuid }: { uuid: string }) {
  const query = useQuery(paymentQuery(uuid));
  return (
    <Card className="space-y-2 p-4 text-sm" data-testid="linked-payment" aria-live="polite">
      {query.isPending ? (
        <p className="text-slate-600">Loading payment {uuid}…</p>
      ) : query.isError ? (
        <p role="alert" className="text-red-800">
          Payment {uuid} could not be loaded: {query.error.message}
        </p>
      ) : (
        <dl className="grid grid-cols-2 gap-4 sm:grid-cols-3">
          <Detail label="Amount" valueClassName="font-semibold tabular-nums">
            {formatMajor("NGN", query.data.amount)}
          </Detail>
          <Detail label="Settled" valueClassName="tabular-nums">
            {formatMajor("NGN", query.data.settledAmount)}
          </Detail>
          <Detail label="Verification">
            <VerificationBadge state={query.data.verification} reason={query.data.verificationError} byHand={query.data.recordedByHand !== null} />
          </Detail>
        </dl>
      )}
      <p>
        <TextLink href={paymentHref(uuid)}>
          Payment details <span className="font-mono text-xs break-all">{uuid}</span>
        </TextLink>
      </p>
    </Card>
  );
}
