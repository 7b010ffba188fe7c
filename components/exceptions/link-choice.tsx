"use client";

import { useQuery } from "@tanstack/react-query";
import type { UseFormRegisterReturn } from "react-hook-form";

import { LocalTime } from "@/components/ui/local-time";
import { formatMajor } from "@/lib/client/money";
import { exceptionQuery } from "@/lib/client/query/options";

// An unlinked payment's choice of request (GET /api/exceptions/:id's suggestions, best first), or none: "Do not link"
// is the default, so a payment is only ever linked by a person picking a request.

const radioClass = "mt-1 h-4 w-4 shrink-0 accent-brand-600";

export function LinkChoice({
  exceptionId,
  field,
  error,
  differentAmount,
  differentAmountError,
}: {
  exceptionId: string;
  field: UseFormRegisterReturn;
  error?: string;
  /** The "accept a different amount" box: a payment of another amount is linked only when it is ticked. */
  differentAmount: UseFormRegisterReturn;
  differentAmountError?: string;
}) {
  const query = useQuery(exceptionQuery(exceptionId));
  const suggestions = query.data?.suggestions ?? [];
  const errorId = `link-${exceptionId}-error`;
  return (
    <fieldset className="space-y-2" aria-describedby={error ? errorId : undefined} data-testid="link-choice">
      <legend className="text-sm font-medium text-slate-700">Link the payment to a request</legend>
      <label className="flex items-start gap-2 text-sm">
        <input type="radio" value="" className={radioClass} {...field} />
        <span>Do not link</span>
      </label>
      {suggestions.map((s) => (
        <label key={s.requestId} className="flex items-start gap-2 text-sm" data-testid="link-suggestion" data-request-id={s.requestId}>
          <input type="radio" value={s.requestId} className={radioClass} {...field} />
          <span className="min-w-0">
            <span className="font-medium">Request #{s.requestId}</span> · <span className="tabular-nums">{formatMajor("NGN", s.amount)}</span> · {s.status}
            {s.sameAmount ? " · same amount" : " · a different amount"}
            <span className="block text-xs text-slate-600">
              @{s.tag}, asked <LocalTime iso={s.createdAt} />
            </span>
          </span>
        </label>
      ))}
      <p className="text-xs text-slate-600" aria-live="polite">
        {query.isPending
          ? "Looking for requests this payment could be linked to…"
          : query.isError
            ? `The requests to link to could not be loaded: ${query.error.message}`
            : suggestions.length === 0
              ? "No pending or accepted request without a payment is open to this tag: resolve without linking."
              : "Requests to the same tag that have no payment yet, the same amount first."}
      </p>
      {suggestions.some((s) => !s.sameAmount) ? (
        <label className="flex items-start gap-2 text-sm" data-testid="accept-different-amount">
          <input type="checkbox" className="mt-1 h-4 w-4 shrink-0 accent-brand-600" {...differentAmount} />
          <span>
            Accept a different amount: link it to a request of another amount (the audit log keeps the amount paid and the amount asked)
            {differentAmountError ? <span className="block text-red-700">{differentAmountError}</span> : null}
          </span>
        </label>
      ) : null}
      {error ? (
        <p id={errorId} role="alert" className="text-sm text-red-700">
          {error}
        </p>
      ) : null}
    </fieldset>
  );
}
