import { getConfig } from "@/lib/config";
import { HydrationBoundary, dehydrate } from "@tanstack/react-query";

import { PaymentList } from "@/components/payments/payment-list";
import { SettledChart } from "@/components/payments/settled-chart";
import { requirePageStaff } from "@/lib/auth/page-guard";
import { ANY_STAFF } from "@/lib/auth/roles";
import { getDb } from "@/lib/db";
import { paymentFilterFromSearch } from "@/lib/payments/filters";
import { PAYMENT_PAGE_SIZE, listPayments, settledPerDay } from "@/lib/payments/query";
import { keys } from "@/lib/query/options";
import { getServerQueryClient } from "@/lib/query/server-client";

export const metadata = { title: "Payments" };

type Search = Promise<Record<string, string | string[] | undefined>>;

export default async function PaymentsPage({ searchParams }: { searchParams: Search }) {
  const staff = await requirePageStaff(ANY_STAFF, "/payments");
  const raw = await searchParams;
  const filter = paymentFilterFromSearch((name) => {
    const value = raw[name];
    return Array.isArray(value) ? value[0] : value;
  });
  const db = await getDb();
  const client = getServerQueryClient();
  const [, days] = await Promise.all([
    client.prefetchQuery({
      queryKey: keys.paymentList(filter),
      queryFn: async () => ({ ...(await listPayments(db, filter, staff.role, getConfig().timeZone)), page: filter.page, pageSize: PAYMENT_PAGE_SIZE }),
    }),
    settledPerDay(db, 30, getConfig().timeZone),
  ]);
  return (
    <div className="space-y-6">
      <h1 className="text-2xl font-semibold">Payments</h1>
      <SettledChart days={days} />
      <HydrationBoundary state={dehydrate(client)}>
        <PaymentList filter={filter} />
      </HydrationBoundary>
    </div>
  );
}
