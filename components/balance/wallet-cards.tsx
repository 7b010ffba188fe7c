import type { BalanceView } from "@/lib/balance/view";
import { Skeleton } from "@/components/ui/skeleton";
import { formatTime } from "@/lib/format-time";

export function WalletCards({ view }: { view: BalanceView }) {
  return (
    <section aria-labelledby="balances-heading" className="space-y-4">
      <div className="flex flex-wrap items-end justify-between gap-2">
        <div>
          <h2 id="balances-heading" className="text-sm font-medium text-slate-600">
            Total balance
          </h2>
          <p className="text-3xl font-semibold tabular-nums" data-testid="total-balance">
            {view.totalFormatted}
          </p>
        </div>
        <p className="text-xs text-slate-600">
          Updated <time dateTime={view.fetchedAt}>{formatTime(view.fetchedAt)}</time>
        </p>
      </div>
      <ul className="grid gap-3 sm:grid-cols-2 lg:grid-cols-4">
        {view.wallets.map((wallet) => (
          <li key={wallet.name} className="rounded-lg border border-slate-200 bg-white p-4 shadow-sm" data-testid="wallet">
            <div className="flex items-center justify-between gap-2">
              <h3 className="truncate text-sm font-medium text-slate-700" data-testid="wallet-name">
                {wallet.name}
              </h3>
              {wallet.main ? <span className="rounded-full bg-brand-50 px-2 py-0.5 text-xs font-medium text-brand-700">Main</span> : null}
            </div>
            <p className="mt-2 text-xl font-semibold tabular-nums" data-testid="wallet-balance">
              {wallet.formatted}
            </p>
          </li>
        ))}
      </ul>
    </section>
  );
}

export function WalletCardsSkeleton() {
  return (
    <div className="space-y-4" aria-busy="true" aria-label="Loading balances">
      <Skeleton className="h-10 w-64" />
      <div className="grid gap-3 sm:grid-cols-2 lg:grid-cols-4">
        {[0, 1, 2, 3].map((i) => (
          <Skeleton key={i} className="h-24" />
        ))}
      </div>
    </div>
  );
}
