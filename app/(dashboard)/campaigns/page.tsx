import { HydrationBoundary, dehydrate } from "@tanstack/react-query";
import Link from "next/link";

import { CampaignList } from "@/components/campaigns/campaign-list";
import { buttonClasses } from "@/components/ui/button";
import { requirePageStaff } from "@/lib/auth/page-guard";
import { readCampaignPage } from "@/lib/campaigns/queries";
import { staffActor } from "@/lib/actors/actor";
import { can } from "@/lib/actors/permissions";
import { pageParam } from "@/lib/client/http/page-param";
import { keys } from "@/lib/client/query/options";
import { getDb } from "@/lib/db";
import { getServerQueryClient } from "@/lib/query/server-client";

export const metadata = { title: "Campaigns" };

type Search = Promise<Record<string, string | string[] | undefined>>;

// The list is a query, prefetched here with the read GET /api/campaigns uses; live campaign and request events
// invalidate it (lib/client/live/effects.ts). The page number stays in the URL.
export default async function CampaignsPage({ searchParams }: { searchParams: Search }) {
  const staff = await requirePageStaff("campaigns.read", "/campaigns");
  const page = pageParam((await searchParams).page);
  const db = await getDb();
  const client = getServerQueryClient();
  await client.prefetchQuery({ queryKey: keys.campaignList(page), queryFn: () => readCampaignPage(db, page) });
  const canSend = can(staffActor(staff), "campaigns.write");

  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h1 className="text-2xl font-semibold">Campaigns</h1>
        {canSend ? (
          <Link href="/campaigns/new" className={buttonClasses("primary")}>
            New campaign
          </Link>
        ) : null}
      </div>
      <p className="text-sm text-slate-700">
        Ask many people for money at once: upload a CSV of tags, amounts and descriptions, check the preview, then start.
      </p>
      <HydrationBoundary state={dehydrate(client)}>
        <CampaignList page={page} canSend={canSend} />
      </HydrationBoundary>
    </div>
  );
}
