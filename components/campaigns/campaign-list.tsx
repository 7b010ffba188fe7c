"use client";

import { useQuery } from "@tanstack/react-query";

import { Card } from "@/components/ui/card";
import { ErrorPanel } from "@/components/ui/error-panel";
import { Pager } from "@/components/ui/pager";
import { TextLink } from "@/components/ui/text-link";
import { campaignListQuery } from "@/lib/client/query/options";

import { CampaignsTable } from "./campaigns-table";
import { CampaignsSkeleton } from "./skeleton";

const pageHref = (n: number) => (n > 1 ? `/campaigns?page=${n}` : "/campaigns");

/** One page of campaigns (the page number lives in the URL); live campaign and request events refetch it. */
export function CampaignList({ page, canSend }: { page: number; canSend: boolean }) {
  const query = useQuery(campaignListQuery(page));
  // A failed refetch keeps the campaigns last read; the panel is for a list never read.
  if (!query.data) {
    return query.isError ? (
      <ErrorPanel title="Campaigns could not be loaded" message={`${query.error.message} Reload the page to try again.`} />
    ) : (
      <CampaignsSkeleton label="Loading campaigns" />
    );
  }
  const { items, total, pageSize } = query.data;
  const pages = Math.max(1, Math.ceil(total / pageSize));

  if (total === 0) {
    return (
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
    );
  }
  return (
    <>
      <CampaignsTable items={items} empty="No campaigns on this page." />
      <Pager newerHref={page > 1 ? pageHref(Math.min(page - 1, pages)) : null} olderHref={page < pages ? pageHref(page + 1) : null}>
        Page {page} of {pages} · {total.toLocaleString("en")} campaign{total === 1 ? "" : "s"}
      </Pager>
    </>
  );
}
