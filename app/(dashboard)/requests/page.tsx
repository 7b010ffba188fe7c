import { HydrationBoundary, dehydrate } from "@tanstack/react-query";
import Link from "next/link";

import { RequestList } from "@/components/requests/request-list";
import { buttonClasses } from "@/components/ui/button";
import { requirePageStaff } from "@/lib/auth/page-guard";
import { ANY_STAFF, SENDERS } from "@/lib/auth/roles";
import { getDb } from "@/lib/db";
import { keys } from "@/lib/query/options";
import { getServerQueryClient } from "@/lib/query/server-client";
import { REQUEST_PAGE_SIZE, listRequests } from "@/lib/requests/repo";
import { requestListQuerySchema } from "@/lib/requests/schemas";

export const metadata = { title: "Requests" };

type Search = Promise<Record<string, string | string[] | undefined>>;

export default async function RequestsPage({ searchParams }: { searchParams: Search }) {
  const staff = await requirePageStaff(ANY_STAFF, "/requests");
  const raw = await searchParams;
  const query = requestListQuerySchema.parse({ status: raw.status || undefined, tag: raw.tag || undefined, page: raw.page });
  const params = { status: query.status, tag: query.tag || undefined, page: query.page };
  const db = await getDb();
  const client = getServerQueryClient();
  await client.prefetchQuery({
    queryKey: keys.requestList(params),
    queryFn: async () => ({ ...(await listRequests(db, query)), page: query.page, pageSize: REQUEST_PAGE_SIZE }),
  });
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
