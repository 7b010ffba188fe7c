import { HydrationBoundary, dehydrate } from "@tanstack/react-query";

import { ExceptionInbox } from "@/components/exceptions/exception-inbox";
import { requirePageStaff } from "@/lib/auth/page-guard";
import { staffActor } from "@/lib/actors/actor";
import { can } from "@/lib/actors/permissions";
import { exceptionListFromSearch } from "@/lib/client/exceptions/view";
import { keys } from "@/lib/client/query/options";
import { getDb } from "@/lib/db";
import { countOpenExceptions, readExceptionPage } from "@/lib/exceptions/queries";
import { getServerQueryClient } from "@/lib/query/server-client";

export const metadata = { title: "Exceptions" };

type Search = Promise<Record<string, string | string[] | undefined>>;

// The exceptions inbox (docs/architecture.md "Closing the books"), prefetched with the reads GET /api/exceptions and its count use (the count fills
// the navigation's badge too); status, kind and page stay in the URL. Admins and operators resolve and reopen.
export default async function ExceptionsPage({ searchParams }: { searchParams: Search }) {
  const staff = await requirePageStaff("exceptions.read", "/exceptions");
  const raw = await searchParams;
  const query = exceptionListFromSearch((name) => raw[name]);
  const db = await getDb();
  const client = getServerQueryClient();
  await Promise.all([
    client.prefetchQuery({ queryKey: keys.exceptionList(query), queryFn: () => readExceptionPage(db, query) }),
    client.prefetchQuery({ queryKey: keys.openExceptions, queryFn: () => countOpenExceptions(db) }),
  ]);
  return (
    <div className="space-y-4">
      <h1 className="text-2xl font-semibold">Exceptions</h1>
      <p className="text-sm text-slate-700">
        What needs a person: a payment that could not be linked to its request or verified, amounts that disagree, a request accepted with no payment, a second
        payment. Most clear by themselves when their cause does; the rest are resolved here with a note saying how.
      </p>
      <HydrationBoundary state={dehydrate(client)}>
        <ExceptionInbox query={query} canAct={can(staffActor(staff), "exceptions.resolve")} />
      </HydrationBoundary>
    </div>
  );
}
