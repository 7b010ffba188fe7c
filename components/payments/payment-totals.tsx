import { cardClasses } from "@/components/ui/card";
import { Detail } from "@/components/ui/detail";
import { formatMajor } from "@/lib/client/money";
import type { PaymentTotals } from "@/lib/payments/view";

function Total({ label, value, testId }: { label: string; value: string; testId: string }) {
  return (
    <Detail label={label} testId={testId} className={cardClasses("p-3")} valueClassName="text-lg font-semibold break-words tabular-nums">
      {value}
    </Detail>
  );
}

/** Sums come from the database as exact decimals; they are only formatted here. */
export function PaymentTotalsView({ totals }: { totals: PaymentTotals }) {
  return (
    <section aria-labelledby="payment-totals-heading">
      <h2 id="payment-totals-heading" className="sr-only">
        Totals for this filter
      </h2>
      <dl className="grid grid-cols-2 gap-3 sm:grid-cols-4" aria-live="polite" data-testid="payment-totals">
        <Total label="Payments" value={String(totals.count)} testId="total-count" />
        <Total label="Amount" value={formatMajor("NGN", totals.amount)} testId="total-amount" />
        <Total label="Fees" value={formatMajor("NGN", totals.fees)} testId="total-fees" />
        <Total label="Settled" value={formatMajor("NGN", totals.settled)} testId="total-settled" />
      </dl>
    </section>
  );
}
