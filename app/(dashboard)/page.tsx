import { getConfig } from "@/lib/config";
import { HydrationBoundary, dehydrate } from "@tanstack/react-query";
import { connection } from "next/server";

import { BalanceSection } from "@/components/balance/balance-section";
import { DeskPanel } from "@/components/payments/desk-panel";
import { RecentPayments } from "@/components/payments/recent-payments";
import { RecentRequests } from "@/components/requests/recent-requests";
import { requirePageStaff } from "@/lib/auth/page-guard";
import { RECENT_PAYMENTS_FILTER, keys } from "@/lib/client/query/options";
import { getBalanceView } from "@/lib/balance/cache";
import { getDb } from "@/lib/db";
import { deskTotals } from "@/lib/payments/desk";
import { readPaymentPage } from "@/lib/payments/query";
import { getServerQueryClient } from "@/lib/query/server-client";
import { readRequestPage } from "@/lib/requests/list";

export const metadata = { title: "Overview" };

// Every part is a query, prefetched here with the read its route handler uses; live events invalidate them.
export default async function OverviewPage() {
  // Balances are live data: render per request, never at build time.
  await connection();
  const staff = await requirePageStaff("reports.read", "/");
  const db = await getDb();
  const client = getServerQueryClient();
  await Promise.all([
    // A failed balance fetch is left to the browser's query, which shows the error panel and retry.
    client.prefetchQuery({ queryKey: keys.balance, queryFn: () => getBalanceView() }),
    client.prefetchQuery({ queryKey: keys.desk, queryFn: () => deskTotals(db, getConfig().timeZone) }),
    client.prefetchQuery({ queryKey: keys.requestList({ page: 1 }), queryFn: () => readRequestPage(db, { page: 1 }, getConfig().timeZone) }),
    client.prefetchQuery({
      queryKey: keys.paymentList(RECENT_PAYMENTS_FILTER),
      queryFn: () => readPaymentPage(db, RECENT_PAYMENTS_FILTER, staff.role, getConfig().timeZone),
    }),
  ]);
  return (
    <div className="flex flex-col gap-8">
      <h1 className="order-first text-2xl font-semibold">Overview</h1>
      <HydrationBoundary state={dehydrate(client)}>
        <BalanceSection />
        {/* On a phone the money that came in is read first, above the wallets; on wide screens it follows them. */}
        <div className="-order-1 md:order-none">
          <DeskPanel />
        </div>
        {/* One above the other: the requests table needs the page's whole width (at 1280 px two thirds cut it off). */}
        <RecentRequests />
        <RecentPayments />
      </HydrationBoundary>
    </div>
  );
}
