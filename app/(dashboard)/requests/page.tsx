import { HydrationBoundary, dehydrate } from "@tanstack/react-query";
import Link from "next/link";

import { RequestList } from "@/components/requests/request-list";
import { buttonClasses } from "@/components/ui/button";
import { requirePageStaff } from "@/lib/auth/page-guard";
import { campaignChoices } from "@/lib/campaigns/queries";
import { staffActor } from "@/lib/actors/actor";
import { can } from "@/lib/actors/permissions";
import { keys } from "@/lib/client/query/options";
import { requestListFromSearch } from "@/lib/client/requests/schemas";
import { dayOf } from "@/lib/client/time/zone";
import { getConfig } from "@/lib/config";
import { getDb } from "@/lib/db";
import { getServerQueryClient } from "@/lib/query/server-client";
import { readRequestPage } from "@/lib/requests/list";

export const metadata = { title: "Requests" };

type Search = Promise<Record<string, string | string[] | undefined>>;

// The list is a query, prefetched here with the read GET /api/requests uses; the filter stays in the URL.
export default async function RequestsPage({ searchParams }: { searchParams: Search }) {
  const staff = await requirePageStaff("requests.read", "/requests");
  const raw = await searchParams;
  const query = requestListFromSearch((name) => {
    const value = raw[name];
    return Array.isArray(value) ? value[0] : value;
  });
  const db = await getDb();
  const client = getServerQueryClient();
  const { timeZone } = getConfig();
  const [campaigns] = await Promise.all([
    campaignChoices(db),
    client.prefetchQuery({ queryKey: keys.requestList(query), queryFn: () => readRequestPage(db, query, timeZone) }),
  ]);
  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h1 className="text-2xl font-semibold">Requests</h1>
        {can(staffActor(staff), "requests.write") ? (
          <Link href="/requests/new" className={buttonClasses("primary")}>
            New request
          </Link>
        ) : null}
      </div>
      <HydrationBoundary state={dehydrate(client)}>
        {/* Today is the server's day in TIMEZONE, so the quick ranges render the same on both sides. */}
        <RequestList query={query} campaigns={campaigns} today={dayOf(new Date(), timeZone)} />
      </HydrationBoundary>
    </div>
  );
}
