import { HydrationBoundary, dehydrate } from "@tanstack/react-query";

import { PayerList } from "@/components/payers/payer-list";
import { requirePageStaff } from "@/lib/auth/page-guard";
import { payerListFromSearch } from "@/lib/client/payers/search";
import { keys } from "@/lib/client/query/options";
import { getDb } from "@/lib/db";
import { readPayerPage } from "@/lib/payers/queries";
import { getServerQueryClient } from "@/lib/query/server-client";

export const metadata = { title: "Payers" };

type Search = Promise<Record<string, string | string[] | undefined>>;

// Prefetched with the read GET /api/payers uses; search, filter, order and page stay in the URL.
export default async function PayersPage({ searchParams }: { searchParams: Search }) {
  await requirePageStaff("payers.read", "/payers");
  const raw = await searchParams;
  const query = payerListFromSearch((name) => raw[name]);
  const db = await getDb();
  const client = getServerQueryClient();
  await client.prefetchQuery({ queryKey: keys.payerList(query), queryFn: () => readPayerPage(db, query) });
  return (
    <div className="space-y-4">
      <h1 className="text-2xl font-semibold">Payers</h1>
      <p className="text-sm text-slate-700">
        Everyone the business has asked or been paid by: what they were asked, what they paid, and who is still to answer.
      </p>
      <HydrationBoundary state={dehydrate(client)}>
        <PayerList query={query} />
      </HydrationBoundary>
    </div>
  );
}
