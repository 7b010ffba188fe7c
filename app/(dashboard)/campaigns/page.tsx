import Link from "next/link";

import { CampaignsTable } from "@/components/campaigns/campaigns-table";
import { buttonClasses } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { Pager } from "@/components/ui/pager";
import { TextLink } from "@/components/ui/text-link";
import { requirePageStaff } from "@/lib/auth/page-guard";
import { ANY_STAFF, SENDERS } from "@/lib/auth/roles";
import { listCampaignViews } from "@/lib/campaigns/queries";
import { CAMPAIGN_PAGE_SIZE } from "@/lib/campaigns/view";
import { getDb } from "@/lib/db";
import { pageParam } from "@/lib/http/page-param";

export const metadata = { title: "Campaigns" };

type Search = Promise<Record<string, string | string[] | undefined>>;

// Drawn on the server; live campaign, request and payment events re-render it (lib/live/effects.ts).
export default async function CampaignsPage({ searchParams }: { searchParams: Search }) {
  const staff = await requirePageStaff(ANY_STAFF, "/campaigns");
  const page = pageParam((await searchParams).page);
  const { items, total } = await listCampaignViews(await getDb(), page);
  const pages = Math.max(1, Math.ceil(total / CAMPAIGN_PAGE_SIZE));
  const canSend = SENDERS.includes(staff.role);
  const pageHref = (n: number) => (n > 1 ? `/campaigns?page=${n}` : "/campaigns");

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
      {total === 0 ? (
        <Card as="section" aria-labelledby="no-campaigns" className="p-6" data-testid="campaigns-empty">
          <h2 id="no-campaigns" className="text-lg font-semibold">
            No campaigns yet
          </h2>
          <p className="mt-1 text-sm text-slate-700">
            {canSend ? (
              <>
                <TextLink href="/campaigns/new">Upload a CSV file</TextLink> to start the first one. You see a preview before anything is sent.
              </>
            ) : (
              "Admins and operators start campaigns; they appear here with their progress."
            )}
          </p>
        </Card>
      ) : (
        <>
          <CampaignsTable items={items} empty="No campaigns on this page." />
          <Pager newerHref={page > 1 ? pageHref(Math.min(page - 1, pages)) : null} olderHref={page < pages ? pageHref(page + 1) : null}>
            Page {page} of {pages} · {total.toLocaleString("en")} campaign{total === 1 ? "" : "s"}
          </Pager>
        </>
      )}
    </div>
  );
}
