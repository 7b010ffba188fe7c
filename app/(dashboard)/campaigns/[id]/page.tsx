import { notFound } from "next/navigation";

import { CampaignPreview, CampaignProgressPanel } from "@/components/campaigns/campaign-overview";
import { campaignHref, campaignRowsSearch, plural, rowFilterParam } from "@/components/campaigns/format";
import { RowFilterSelect, type RowFilterOption } from "@/components/campaigns/row-filter";
import { RowsPager } from "@/components/campaigns/rows-pager";
import { CampaignRowsTable } from "@/components/campaigns/rows-table";
import { CampaignStatusBadge } from "@/components/campaigns/status-badge";
import { TextLink } from "@/components/ui/text-link";
import { requirePageStaff } from "@/lib/auth/page-guard";
import { ANY_STAFF, SENDERS } from "@/lib/auth/roles";
import { getCampaignView, listCampaignRows } from "@/lib/campaigns/queries";
import { CAMPAIGN_ROWS_PAGE_SIZE, ROW_STATUSES, type CampaignView } from "@/lib/campaigns/view";
import { getDb } from "@/lib/db";
import { pageParam } from "@/lib/http/page-param";
import { malformedParam } from "@/lib/http/route-params";
import { formatTime } from "@/lib/time/format";

export const metadata = { title: "Campaign" };

type Search = Promise<Record<string, string | string[] | undefined>>;

function filterOptions(c: CampaignView): RowFilterOption[] {
  return [
    ...ROW_STATUSES.map((s) => ({ value: s, label: `${s} (${c.counts[s].toLocaleString("en")})` })),
    { value: "warning" as const, label: `with a warning (${c.warnings.toLocaleString("en")})` },
    // Everyone asked who has not paid: still to answer, declined, or failed (the people to chase).
    { value: "not_paid" as const, label: `not paid (${(c.counts.sent + c.counts.declined + c.counts.failed).toLocaleString("en")})` },
  ];
}

// Drawn on the server: live campaign.progress, request.updated and payment.recorded events re-render
// it (router.refresh through components/live/live-updates.tsx; lib/live/effects.ts decides).
export default async function CampaignPage({ params, searchParams }: { params: Promise<{ id: string }>; searchParams: Search }) {
  const { id } = await params;
  const staff = await requirePageStaff(ANY_STAFF, campaignHref(id));
  // A campaign id is a uuid, which never needs percent-encoding: anything else is simply not found.
  if (malformedParam({ id })) notFound();
  const raw = await searchParams;
  const status = rowFilterParam(raw.status);
  const page = pageParam(raw.page);
  const db = await getDb();
  const campaign = await getCampaignView(db, id);
  if (!campaign) notFound();
  const draft = campaign.status === "draft";
  const [rows, invalid, warnings] = await Promise.all([
    listCampaignRows(db, id, { status, page }),
    draft && campaign.counts.invalid > 0 ? listCampaignRows(db, id, { status: "invalid", page: 1 }) : null,
    draft && campaign.warnings > 0 ? listCampaignRows(db, id, { status: "warning", page: 1 }) : null,
  ]);
  const canSend = SENDERS.includes(staff.role);
  const pages = Math.max(1, Math.ceil(rows.total / CAMPAIGN_ROWS_PAGE_SIZE));
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
          <CampaignStatusBadge status={campaign.status} stillToAnswer={campaign.counts.sent} />
        </div>
        <p className="text-sm text-slate-700">
          Uploaded {formatTime(campaign.createdAt)}
          {campaign.createdBy ? ` by ${campaign.createdBy}` : ""}
          {campaign.startedAt ? ` · started ${formatTime(campaign.startedAt)}` : ""}
          {campaign.sentBy && campaign.sentBy !== campaign.createdBy ? ` · sent under ${campaign.sentBy}` : ""}
          {campaign.finishedAt ? ` · ${campaign.status === "cancelled" ? "cancelled" : "finished"} ${formatTime(campaign.finishedAt)}` : ""}
        </p>
      </div>
      {draft ? (
        <CampaignPreview campaign={campaign} invalid={invalid} warnings={warnings} canSend={canSend} />
      ) : (
        <CampaignProgressPanel campaign={campaign} canSend={canSend} status={status} />
      )}
      <section aria-labelledby="rows-heading" className="space-y-3">
        <div className="flex flex-wrap items-end justify-between gap-3">
          <h2 id="rows-heading" className="text-lg font-semibold">
            Rows
          </h2>
          <RowFilterSelect value={status} options={filterOptions(campaign)} allLabel={`All (${campaign.counts.total.toLocaleString("en")})`} />
        </div>
        <CampaignRowsTable
          items={rows.items}
          empty={rows.total === 0 ? (status ? "No rows match this filter." : "This campaign has no rows.") : "No rows on this page."}
        />
        <RowsPager previousHref={page > 1 ? rowsHref(Math.min(page - 1, pages)) : null} nextHref={page < pages ? rowsHref(page + 1) : null}>
          Page {page} of {pages} · {plural(rows.total, "row")}
          {status ? ` (${status === "warning" ? "with a warning" : status === "not_paid" ? "not paid" : status})` : ""}
        </RowsPager>
      </section>
    </div>
  );
}
