import { LocalTime } from "@/components/ui/local-time";
import { Badge } from "@/components/ui/badge";
import { Card } from "@/components/ui/card";
import { Skeleton } from "@/components/ui/skeleton";
import type { BalanceView } from "@/lib/balance/view";

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
          Updated <LocalTime iso={view.fetchedAt} />
        </p>
      </div>
      <ul className="grid gap-3 sm:grid-cols-2 lg:grid-cols-4">
        {view.wallets.map((wallet) => (
          <Card as="li" key={wallet.name} className="p-4 shadow-sm" data-testid="wallet">
            <div className="flex items-center justify-between gap-2">
              <h3 className="truncate text-sm font-medium text-slate-700" data-testid="wallet-name">
                {wallet.name}
              </h3>
              {wallet.main ? <Badge tone="brand">Main</Badge> : null}
            </div>
            <p className="mt-2 text-xl font-semibold tabular-nums" data-testid="wallet-balance">
              {wallet.formatted}
            </p>
          </Card>
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
