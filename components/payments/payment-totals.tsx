import { TotalsGrid } from "@/components/ui/totals";
import { formatMajor } from "@/lib/client/money";
import type { PaymentTotals } from "@/lib/payments/view";

/** Sums come from the database as exact decimals; they are only formatted here. */
export function PaymentTotalsView({ totals }: { totals: PaymentTotals }) {
  return (
    <TotalsGrid
      heading="Totals for this filter"
      testId="payment-totals"
      columns="grid-cols-2 sm:grid-cols-4"
      cards={[
        { label: "Payments", value: String(totals.count), testId: "total-count" },
        { label: "Amount", value: formatMajor("NGN", totals.amount), testId: "total-amount" },
        { label: "Fees", value: formatMajor("NGN", totals.fees), testId: "total-fees" },
        { label: "Settled", value: formatMajor("NGN", totals.settled), testId: "total-settled" },
      ]}
    />
  );
}
