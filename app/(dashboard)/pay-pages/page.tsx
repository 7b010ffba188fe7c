import { HydrationBoundary, dehydrate } from "@tanstack/react-query";

import { PayPagesScreen } from "@/components/pay-pages/pay-pages-screen";
import { staffActor } from "@/lib/actors/actor";
import { can } from "@/lib/actors/permissions";
import { requirePageStaff } from "@/lib/auth/page-guard";
import { keys } from "@/lib/client/query/options";
import { getDb } from "@/lib/db";
import { listPayPages } from "@/lib/pay-pages/queries";
import { readPlanPage } from "@/lib/plans/queries";
import { getServerQueryClient } from "@/lib/query/server-client";

export const metadata = { title: "Pay pages" };

// Pay pages (docs/architecture.md "Pay pages"): every staff member reads the list and its counts; admins and operators
// make and change pages. Prefetched with the reads GET /api/pay-pages and GET /api/plans use.
export default async function PayPagesPage() {
  const staff = await requirePageStaff("pay_pages.read", "/pay-pages");
  const canManage = can(staffActor(staff), "pay_pages.manage");
  const db = await getDb();
  const client = getServerQueryClient();
  await Promise.all([
    client.prefetchQuery({ queryKey: keys.payPages, queryFn: () => listPayPages(db) }),
    canManage ? client.prefetchQuery({ queryKey: keys.planList(1), queryFn: () => readPlanPage(db, 1) }) : null,
  ]);
  return (
    <div className="space-y-4">
      <h1 className="text-2xl font-semibold">Pay pages</h1>
      <p className="text-sm text-slate-700">
        A pay page is a link or a QR code anyone can open to be asked for money: they type their tag, and the request arrives in their app to accept. Print a
        page&apos;s poster for a counter or a gate, or share its link; each page counts its views, the requests it sent and what they brought in.
      </p>
      <HydrationBoundary state={dehydrate(client)}>
        <PayPagesScreen canManage={canManage} />
      </HydrationBoundary>
    </div>
  );
}
