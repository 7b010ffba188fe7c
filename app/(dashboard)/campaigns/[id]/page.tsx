import { HydrationBoundary, dehydrate } from "@tanstack/react-query";
import { notFound } from "next/navigation";

import { CampaignPage as CampaignScreen } from "@/components/campaigns/campaign-page";
import { campaignHref, rowFilterParam } from "@/components/campaigns/format";
import { requirePageStaff } from "@/lib/auth/page-guard";
import { getCampaignView, readCampaignRows } from "@/lib/campaigns/queries";
import { staffActor } from "@/lib/actors/actor";
import { can } from "@/lib/actors/permissions";
import { pageParam } from "@/lib/client/http/page-param";
import { keys } from "@/lib/client/query/options";
import { getDb } from "@/lib/db";
import { malformedParam } from "@/lib/http/route-params";
import { getServerQueryClient } from "@/lib/query/server-client";

export const metadata = { title: "Campaign" };

type Search = Promise<Record<string, string | string[] | undefined>>;

// The campaign and its rows are queries, prefetched here with the reads their route handlers use; live
// campaign.progress and request.updated events naming this campaign invalidate them (lib/client/live/effects.ts).
// The rows' filter and page stay in the URL.
export default async function CampaignPage({ params, searchParams }: { params: Promise<{ id: string }>; searchParams: Search }) {
  const { id: raw } = await params;
  const staff = await requirePageStaff("campaigns.read", campaignHref(raw));
  // A campaign id is a uuid, which never needs percent-encoding: anything else is simply not found.
  if (malformedParam({ id: raw })) notFound();
  const id = raw.toLowerCase();
  const search = await searchParams;
  const status = rowFilterParam(search.status);
  const page = pageParam(search.page);
  const db = await getDb();
  const client = getServerQueryClient();
  const campaign = await client.fetchQuery({ queryKey: keys.campaign(id), queryFn: () => getCampaignView(db, id) });
  if (!campaign) notFound();
  const draft = campaign.status === "draft";
  const rows = (query: { status?: typeof status; page: number }) =>
    client.prefetchQuery({ queryKey: keys.campaignRows(id, query), queryFn: () => readCampaignRows(db, id, query) });
  // A draft's preview lists the first invalid and flagged rows too.
  await Promise.all([
    rows({ status, page }),
    draft && campaign.counts.invalid > 0 ? rows({ status: "invalid", page: 1 }) : null,
    draft && campaign.warnings > 0 ? rows({ status: "warning", page: 1 }) : null,
  ]);
  return (
    <HydrationBoundary state={dehydrate(client)}>
      <CampaignScreen id={id} status={status} page={page} canSend={can(staffActor(staff), "campaigns.write")} />
    </HydrationBoundary>
  );
}
