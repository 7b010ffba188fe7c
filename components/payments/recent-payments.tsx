import { Card } from "@/components/ui/card";
import { formatMajor } from "@/lib/money";
import type { RecentPayment } from "@/lib/payments/recent";
import { formatTime } from "@/lib/time/format";

export function RecentPayments({ items }: { items: RecentPayment[] }) {
  return (
    <section aria-labelledby="recent-payments" className="space-y-2">
      <h2 id="recent-payments" className="text-lg font-semibold">
        Recent payments
      </h2>
      {items.length === 0 ? (
        <Card as="p" className="px-3 py-6 text-center text-sm text-slate-600">
          No payments yet. They appear here when a customer accepts a request.
        </Card>
      ) : (
        <Card as="ul" className="divide-y divide-slate-100 text-sm">
          {items.map((p) => (
            <li key={p.uuid} className="flex flex-wrap items-center justify-between gap-2 px-3 py-2" data-testid="recent-payment">
              <span>
                {p.customerName} <span className="text-slate-600">@{p.customerTag}</span>
              </span>
              <span className="tabular-nums">{formatMajor("NGN", p.settledAmount)}</span>
              <span className="text-xs text-slate-600">
                {p.verification} · {formatTime(p.receivedAt)}
              </span>
            </li>
          ))}
        </Card>
      )}
    </section>
  );
}
