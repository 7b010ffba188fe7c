import { TotalsGrid } from "@/components/ui/totals";
import { formatMajor } from "@/lib/client/money";
import type { RequestSum, RequestTotals } from "@/lib/requests/view";

// What the filtered requests ask for, in all and per answer; the sums come from the database as exact decimals.
const STATUSES = [
  ["pending", "Pending"],
  ["accepted", "Accepted"],
  ["declined", "Declined"],
  ["failed", "Failed"],
] as const;

const counted = (s: RequestSum) => `${s.count} request${s.count === 1 ? "" : "s"}`;

export function RequestTotalsView({ totals }: { totals: RequestTotals }) {
  return (
    <TotalsGrid
      heading="Totals for this filter"
      testId="request-totals"
      columns="grid-cols-2 sm:grid-cols-5"
      cards={[
        { label: "Asked in all", value: formatMajor("NGN", totals.amount), note: counted(totals), testId: "total-all" },
        ...STATUSES.map(([status, label]) => ({
          label,
          value: formatMajor("NGN", totals.byStatus[status].amount),
          note: counted(totals.byStatus[status]),
          testId: `total-${status}`,
        })),
      ]}
    />
  );
}
