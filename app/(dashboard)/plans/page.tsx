import { HydrationBoundary, dehydrate } from "@tanstack/react-query";
import Link from "next/link";

import { PlanList } from "@/components/plans/plan-list";
import { buttonClasses } from "@/components/ui/button";
import { requirePageStaff } from "@/lib/auth/page-guard";
import { staffActor } from "@/lib/actors/actor";
import { can } from "@/lib/actors/permissions";
import { pageParam } from "@/lib/client/http/page-param";
import { keys } from "@/lib/client/query/options";
import { getDb } from "@/lib/db";
import { readPlanPage } from "@/lib/plans/queries";
import { getServerQueryClient } from "@/lib/query/server-client";

export const metadata = { title: "Plans" };

type Search = Promise<Record<string, string | string[] | undefined>>;

// The list is a query, prefetched here with the read GET /api/plans uses; live request, payment and campaign events
// invalidate it (lib/client/live/effects.ts). The page number stays in the URL.
export default async function PlansPage({ searchParams }: { searchParams: Search }) {
  const staff = await requirePageStaff("plans.read", "/plans");
  const page = pageParam((await searchParams).page);
  const db = await getDb();
  const client = getServerQueryClient();
  await client.prefetchQuery({ queryKey: keys.planList(page), queryFn: () => readPlanPage(db, page) });
  const canSend = can(staffActor(staff), "plans.write");

  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h1 className="text-2xl font-semibold">Plans</h1>
        {canSend ? (
          <Link href="/plans/new" className={buttonClasses("primary")}>
            New plan
          </Link>
        ) : null}
      </div>
      <p className="text-sm text-slate-700">
        Dues, fees and subscriptions that repeat: a plan asks the same people every week, month or quarter, and its dues board shows who has paid each period.
      </p>
      <HydrationBoundary state={dehydrate(client)}>
        <PlanList page={page} canSend={canSend} />
      </HydrationBoundary>
    </div>
  );
}
