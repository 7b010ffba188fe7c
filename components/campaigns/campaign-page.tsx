"use client";

import { useQuery } from "@tanstack/react-query";

import { LocalTime, useTimeZone } from "@/components/ui/local-time";
import { formatTime } from "@/lib/client/time/format";
import { ErrorPanel } from "@/components/ui/error-panel";
import { TextLink } from "@/components/ui/text-link";
import { ROW_STATUSES, isDiscarded, type CampaignView, type RowFilter } from "@/lib/client/campaigns/view";
import { campaignQuery, campaignRowsQuery } from "@/lib/client/query/options";

import { AskAgainForm, CampaignFamilyPanel } from "./ask-again-form";
import { CampaignPreview, CampaignProgressPanel } from "./campaign-overview";
import { campaignHref, campaignRowsSearch, plural } from "./format";
import { RowFilterSelect, type RowFilterOption } from "./row-filter";
import { RowsPager } from "./rows-pager";
import { CampaignRowsTable } from "./rows-table";
import { CampaignsSkeleton } from "./skeleton";
import { CampaignStatusBadge } from "./status-badge";

function filterOptions(c: CampaignView): RowFilterOption[] {
  return [
    ...ROW_STATUSES.map((s) => ({ value: s, label: `${s} (${c.counts[s].toLocaleString("en")})` })),
    { value: "warning" as const, label: `with a warning (${c.warnings.toLocaleString("en")})` },
    // Everyone asked who has not paid: still to answer, declined, or failed (the people to chase).
    { value: "not_paid" as const, label: `not paid (${(c.counts.sent + c.counts.declined + c.counts.failed).toLocaleString("en")})` },
  ];
}

/**
 * One campaign: its header, the draft's preview or the started campaign's progress, and its rows (filter and page in
 * the URL). Every part is a query the page prefetched; live events naming this campaign refetch them.
 */
export function CampaignPage({ id, status, page, canSend }: { id: string; status: RowFilter | undefined; page: number; canSend: boolean }) {
  const query = useQuery(campaignQuery(id));
  const timeZone = useTimeZone();
  const campaign = query.data ?? null;
  const draft = campaign?.status === "draft";
  const rows = useQuery(campaignRowsQuery(id, { status, page }));
  const invalid = useQuery({ ...campaignRowsQuery(id, { status: "invalid", page: 1 }), enabled: draft && (campaign?.counts.invalid ?? 0) > 0 });
  const warnings = useQuery({ ...campaignRowsQuery(id, { status: "warning", page: 1 }), enabled: draft && (campaign?.warnings ?? 0) > 0 });

  // A failed refetch keeps the campaign last read; the panel is for one never read.
  if (!campaign) {
    return query.isError ? (
      <ErrorPanel title="The campaign could not be loaded" message={`${query.error.message} Reload the page to try again.`} />
    ) : (
      <CampaignsSkeleton label="Loading the campaign" />
    );
  }
  const total = rows.data?.total ?? 0;
  const pages = Math.max(1, Math.ceil(total / (rows.data?.pageSize ?? 1)));
  const base = campaignHref(id);
  const rowsHref = (n: number) => `${base}${campaignRowsSearch({ status, page: n })}`;

  return (
    <div className="space-y-6">
      <div className="space-y-2">
        <TextLink href="/campaigns" className="text-sm">
          All campaigns
        </TextLink>
        <div className="flex flex-wrap items-center gap-3">
          <h1 className="text-2xl font-semibold break-words" data-testid="campaign-name">
            {campaign.name}
          </h1>
          <CampaignStatusBadge status={campaign.status} stillToAnswer={campaign.counts.sent} discarded={isDiscarded(campaign)} />
        </div>
        <p className="text-sm text-slate-700">
          Uploaded <LocalTime iso={campaign.createdAt} />
          {campaign.createdBy ? ` by ${campaign.createdBy}` : ""}
          {campaign.startedAt ? ` · started ${formatTime(campaign.startedAt, timeZone)}` : ""}
          {campaign.sentBy && campaign.sentBy !== campaign.createdBy ? ` · sent under ${campaign.sentBy}` : ""}
          {campaign.finishedAt ? ` · ${campaign.status === "cancelled" ? "cancelled" : "finished"} ${formatTime(campaign.finishedAt, timeZone)}` : ""}
        </p>
      </div>
      {draft ? (
        <CampaignPreview
          campaign={campaign}
          invalid={campaign.counts.invalid > 0 ? (invalid.data ?? null) : null}
          warnings={campaign.warnings > 0 ? (warnings.data ?? null) : null}
          canSend={canSend}
        />
      ) : (
        <CampaignProgressPanel campaign={campaign} canSend={canSend} status={status} />
      )}
      <CampaignFamilyPanel campaign={campaign} />
      {canSend && !draft && campaign.counts.sent + campaign.counts.declined + campaign.counts.failed > 0 ? <AskAgainForm campaign={campaign} /> : null}
      <section aria-labelledby="rows-heading" className="space-y-3">
        <div className="flex flex-wrap items-end justify-between gap-3">
          <h2 id="rows-heading" className="text-lg font-semibold">
            Rows
          </h2>
          <RowFilterSelect value={status} options={filterOptions(campaign)} allLabel={`All (${campaign.counts.total.toLocaleString("en")})`} />
        </div>
        {rows.isError && !rows.data ? (
          <ErrorPanel title="The rows could not be loaded" message={`${rows.error.message} Reload the page to try again.`} />
        ) : (
          <CampaignRowsTable
            items={rows.data?.items ?? []}
            empty={!rows.data ? "Loading…" : total === 0 ? (status ? "No rows match this filter." : "This campaign has no rows.") : "No rows on this page."}
          />
        )}
        <RowsPager previousHref={page > 1 ? rowsHref(Math.min(page - 1, pages)) : null} nextHref={page < pages ? rowsHref(page + 1) : null}>
          Page {page} of {pages} · {plural(total, "row")}
          {status ? ` (${status === "warning" ? "with a warning" : status === "not_paid" ? "not paid" : status})` : ""}
        </RowsPager>
      </section>
    </div>
  );
}
