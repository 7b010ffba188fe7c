import { getConfig } from "@/lib/config";
import { HydrationBoundary, dehydrate } from "@tanstack/react-query";

import { PaymentList } from "@/components/payments/payment-list";
import { SettledChart } from "@/components/payments/settled-chart";
import { requirePageStaff } from "@/lib/auth/page-guard";
import { staffActor } from "@/lib/actors/actor";
import { can } from "@/lib/actors/permissions";
import { paymentFilterFromSearch } from "@/lib/client/payments/filters";
import { keys } from "@/lib/client/query/options";
import { getDb } from "@/lib/db";
import { readPaymentPage, settledPerDay } from "@/lib/payments/query";
import { getServerQueryClient } from "@/lib/query/server-client";
import { dayOf } from "@/lib/client/time/zone";

export const metadata = { title: "Payments" };

type Search = Promise<Record<string, string | string[] | undefined>>;

// The chart and the list are queries, prefetched here with the reads their route handlers use; filters stay in the URL.
export default async function PaymentsPage({ searchParams }: { searchParams: Search }) {
  const staff = await requirePageStaff("payments.read", "/payments");
  const raw = await searchParams;
  const filter = paymentFilterFromSearch((name) => {
    const value = raw[name];
    return Array.isArray(value) ? value[0] : value;
  });
  const db = await getDb();
  const client = getServerQueryClient();
  const timeZone = getConfig().timeZone;
  await Promise.all([
    client.prefetchQuery({ queryKey: keys.paymentList(filter), queryFn: () => readPaymentPage(db, filter, staff.role, timeZone) }),
    client.prefetchQuery({ queryKey: keys.settledPerDay, queryFn: () => settledPerDay(db, timeZone) }),
  ]);
  return (
    <div className="space-y-6">
      <h1 className="text-2xl font-semibold">Payments</h1>
      <HydrationBoundary state={dehydrate(client)}>
        <SettledChart />
        <PaymentList filter={filter} today={dayOf(new Date(), timeZone)} canExport={can(staffActor(staff), "payments.export")} />
      </HydrationBoundary>
    </div>
  );
}
