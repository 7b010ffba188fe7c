import { HydrationBoundary, dehydrate } from "@tanstack/react-query";
import Link from "next/link";

import { RequestList } from "@/components/requests/request-list";
import { buttonClasses } from "@/components/ui/button";
import { requirePageStaff } from "@/lib/auth/page-guard";
import { ANY_STAFF, SENDERS } from "@/lib/client/auth/roles";
import { getDb } from "@/lib/db";
import { keys } from "@/lib/client/query/options";
import { getServerQueryClient } from "@/lib/query/server-client";
import { readRequestPage } from "@/lib/requests/repo";
import { requestListQuerySchema } from "@/lib/client/requests/schemas";

export const metadata = { title: "Requests" };

type Search = Promise<Record<string, string | string[] | undefined>>;

export default async function RequestsPage({ searchParams }: { searchParams: Search }) {
  const staff = await requirePageStaff(ANY_STAFF, "/requests");
  const raw = await searchParams;
  const query = requestListQuerySchema.parse({ status: raw.status || undefined, tag: raw.tag || undefined, page: raw.page });
  const params = { status: query.status, tag: query.tag || undefined, page: query.page };
  const db = await getDb();
  const client = getServerQueryClient();
  await client.prefetchQuery({ queryKey: keys.requestList(params), queryFn: () => readRequestPage(db, query) });
  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h1 className="text-2xl font-semibold">Requests</h1>
        {SENDERS.includes(staff.role) ? (
          <Link href="/requests/new" className={buttonClasses("primary")}>
            New request
          </Link>
        ) : null}
      </div>
      <HydrationBoundary state={dehydrate(client)}>
        <RequestList params={params} />
      </HydrationBoundary>
    </div>
  );
}
