import { HydrationBoundary, dehydrate } from "@tanstack/react-query";
import { notFound } from "next/navigation";

import { planHref } from "@/components/plans/format";
import { PlanPage as PlanScreen } from "@/components/plans/plan-page";
import { requirePageStaff } from "@/lib/auth/page-guard";
import { staffActor } from "@/lib/actors/actor";
import { can } from "@/lib/actors/permissions";
import { boardQuerySchema, planQuerySchema } from "@/lib/client/plans/schemas";
import { keys } from "@/lib/client/query/options";
import { getDb } from "@/lib/db";
import { malformedParam } from "@/lib/http/route-params";
import { getPlanView, readBoard } from "@/lib/plans/queries";
import { findPlan } from "@/lib/plans/repo";
import { getServerQueryClient } from "@/lib/query/server-client";

export const metadata = { title: "Plan" };

type Search = Promise<Record<string, string | string[] | undefined>>;

// The plan and its dues board are queries, prefetched here with the reads their route handlers use; live request,
// payment and campaign events invalidate them (lib/client/live/effects.ts). The board's "owing" filter and its page of
// members, and the roster's page (`members=`), stay in the URL: the page holds one page of each, however large the plan.
export default async function PlanPage({ params, searchParams }: { params: Promise<{ id: string }>; searchParams: Search }) {
  const { id: raw } = await params;
  const staff = await requirePageStaff("plans.read", planHref(raw));
  // A plan id is a uuid, which never needs percent-encoding: anything else is simply not found.
  if (malformedParam({ id: raw })) notFound();
  const id = raw.toLowerCase();
  const search = await searchParams;
  const first = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v);
  const { owing, page } = boardQuerySchema.parse({ owing: first(search.owing), page: first(search.page) });
  const { members } = planQuerySchema.parse({ members: first(search.members) });
  const db = await getDb();
  const row = await findPlan(db, id);
  if (!row) notFound();
  const client = getServerQueryClient();
  const now = new Date();
  await Promise.all([
    client.prefetchQuery({ queryKey: keys.planView(id, members), queryFn: () => getPlanView(db, id, now, { page: members }) }),
    client.prefetchQuery({ queryKey: keys.planBoard(id, owing, page), queryFn: () => readBoard(db, row, 12, owing, now, { page }) }),
  ]);
  return (
    <HydrationBoundary state={dehydrate(client)}>
      <PlanScreen id={id} owing={owing} page={page} members={members} now={now.toISOString()} canSend={can(staffActor(staff), "plans.write")} />
    </HydrationBoundary>
  );
}
