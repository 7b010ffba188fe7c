import "server-only";

import { sql, type SQL } from "drizzle-orm";

import type { Page } from "@/lib/client/http/page-param";
import { getConfig } from "@/lib/config";
import { queryRows, type Db } from "@/lib/db/client";
import { sendsShareWhileChecking } from "@/lib/service/budget";

import {
  CAMPAIGN_PAGE_SIZE,
  CAMPAIGN_ROWS_PAGE_SIZE,
  type CampaignFamily,
  type CampaignRowView,
  type LeftOutReason,
  type CampaignStatus,
  type CampaignView,
  type RowFilter,
  type RowStatus,
} from "@/lib/client/campaigns/view";

// A sent row shows its request's status: the request is the one source of truth, so rows follow it live.
// A claimed row (its call under way) is still "queued" to people until its request is recorded.
const ROW_STATUS = sql`case when r.status = 'claimed' then 'queued' when r.status = 'sent' then case fr.status when 'accepted' then 'accepted' when 'declined' then 'declined' when 'failed' then 'failed' when 'unknown' then 'unknown' else 'sent' end else r.status end`;

interface CountsRow {
  campaign_id: string;
  total: number;
  invalid: number;
  queued: number;
  sent: number;
  accepted: number;
  declined: number;
  failed: number;
  unknown: number;
  skipped: number;
  warnings: number;
  asked: string;
  accepted_amount: string;
  collected: string;
  outstanding: string;
}

async function countsFor(db: Db, ids: string[]): Promise<Map<string, CountsRow>> {
  if (ids.length === 0) return new Map();
  const rows = await queryRows<CountsRow>(
    db,
    sql`select r.campaign_id,
          count(*)::int as total,
          count(*) filter (where s.status = 'invalid')::int as invalid,
          count(*) filter (where s.status = 'queued')::int as queued,
          count(*) filter (where s.status = 'sent')::int as sent,
          count(*) filter (where s.status = 'accepted')::int as accepted,
          count(*) filter (where s.status = 'declined')::int as declined,
          count(*) filter (where s.status = 'failed')::int as failed,
          count(*) filter (where s.status = 'unknown')::int as unknown,
          count(*) filter (where s.status = 'skipped')::int as skipped,
          count(*) filter (where r.warning is not null)::int as warnings,
          coalesce(sum(r.amount_naira) filter (where s.status not in ('invalid', 'skipped')), 0)::numeric(20,2)::text as asked,
          coalesce(sum(r.amount_naira) filter (where s.status = 'accepted'), 0)::numeric(20,2)::text as accepted_amount,
          coalesce(sum(p.settled_amount), 0)::numeric(20,2)::text as collected,
          coalesce(sum(r.amount_naira) filter (where s.status = 'sent'), 0)::numeric(20,2)::text as outstanding
        from campaign_rows r
        left join fund_requests fr on fr.id = r.fund_request_id
        left join payments p on p.fund_request_id = fr.id
        cross join lateral (select ${ROW_STATUS} as status) s
        where r.campaign_id in (${sql.join(
          ids.map((id) => sql`${id}::uuid`),
          sql`, `,
        )})
        group by r.campaign_id`,
  );
  return new Map(rows.map((r) => [r.campaign_id, r]));
}

interface CampaignBase {
  id: string;
  name: string;
  parent_id: string | null;
  family_id: string | null;
  round: number;
  status: CampaignStatus;
  created_by: string | null;
  sent_by: string | null;
  paused_reason: string | null;
  created_at: Date | string;
  started_at: Date | string | null;
  finished_at: Date | string | null;
}

const iso = (d: Date | string | null): string | null => (d === null ? null : new Date(d).toISOString());

/** Rows a minute a campaign sends while its requests wait for answers (the background share less the status checks' room). */
export function campaignPace(): number {
  return sendsShareWhileChecking(getConfig().serviceRateLimitPerMin);
}

function toView(c: CampaignBase, n: CountsRow | undefined, pace: number, family: CampaignFamily | null = null): CampaignView {
  const queued = n?.queued ?? 0;
  return {
    id: c.id,
    name: c.name,
    parentId: c.parent_id,
    round: c.round,
    family,
    status: c.status,
    createdBy: c.created_by,
    sentBy: c.sent_by,
    pausedReason: c.status === "paused" ? c.paused_reason : null,
    createdAt: iso(c.created_at) ?? "",
    startedAt: iso(c.started_at),
    finishedAt: iso(c.finished_at),
    counts: {
      total: n?.total ?? 0,
      invalid: n?.invalid ?? 0,
      queued,
      sent: n?.sent ?? 0,
      accepted: n?.accepted ?? 0,
      declined: n?.declined ?? 0,
      failed: n?.failed ?? 0,
      unknown: n?.unknown ?? 0,
      skipped: n?.skipped ?? 0,
    },
    amounts: { asked: n?.asked ?? "0.00", accepted: n?.accepted_amount ?? "0.00", collected: n?.collected ?? "0.00", outstanding: n?.outstanding ?? "0.00" },
    warnings: n?.warnings ?? 0,
    etaSeconds: queued > 0 && (c.status === "sending" || c.status === "paused" || c.status === "draft") ? Math.ceil((queued / pace) * 60) : null,
  };
}

const CAMPAIGN_COLUMNS = sql`c.id, c.name, c.parent_id, c.family_id, c.round, c.status, s.name as created_by, snd.name as sent_by, c.paused_reason, c.created_at, c.started_at, c.finished_at`;
const CAMPAIGN_FROM = sql`campaigns c left join staff s on s.id = c.created_by left join staff snd on snd.id = c.sender_id`;

/** One campaign (GET /api/campaigns/:id and the campaign page's prefetch); null when there is no such campaign. */
export async function getCampaignView(db: Db, id: string, pace: number = campaignPace()): Promise<CampaignView | null> {
  if (!/^[0-9a-f-]{36}$/i.test(id)) return null;
  const [c] = await queryRows<CampaignBase>(db, sql`select ${CAMPAIGN_COLUMNS} from ${CAMPAIGN_FROM} where c.id = ${id}::uuid`);
  if (!c) return null;
  const [counts, family] = await Promise.all([countsFor(db, [c.id]), familyOf(db, c.family_id ?? c.id, c.id)]);
  return toView(c, counts.get(c.id), pace, family);
}

/**
 * A family's rounds, oldest first, who in it has been asked and has paid (each tag once), and how many of
 * `campaignId`'s rows still to send go to someone with an open request from an earlier round (asked twice at once).
 */
async function familyOf(db: Db, familyId: string, campaignId: string): Promise<CampaignFamily> {
  const [rounds, [people], [open]] = await Promise.all([
    queryRows<{ id: string; name: string; round: number; status: CampaignStatus }>(
      db,
      sql`select id, name, round, status from campaigns where id = ${familyId}::uuid or family_id = ${familyId}::uuid order by round, created_at`,
    ),
    queryRows<{ paid: number; asked: number }>(
      db,
      sql`select count(distinct lower(regexp_replace(fr.tag, '^@', ''))) filter (where fr.status = 'accepted')::int as paid,
            count(distinct lower(regexp_replace(fr.tag, '^@', '')))::int as asked
          from campaigns c join campaign_rows r on r.campaign_id = c.id join fund_requests fr on fr.id = r.fund_request_id
          where c.id = ${familyId}::uuid or c.family_id = ${familyId}::uuid`,
    ),
    // Only a later round can hold people with an open request from an earlier one. Each side's tags are read once
    // and joined: a correlated check per queued row compared every sent row's tag again, seconds for a 2,000-row
    // campaign polled every second, holding the embedded database while a person waited to send.
    campaignId === familyId
      ? [{ n: 0 }]
      : queryRows<{ n: number }>(
          db,
          sql`with queued as materialized (
                select lower(regexp_replace(q.tag, '^@', '')) as k from campaign_rows q where q.campaign_id = ${campaignId}::uuid and q.status = 'queued'
              ), held as materialized (
                select distinct lower(regexp_replace(fr.tag, '^@', '')) as k from campaigns c
                  join campaign_rows r on r.campaign_id = c.id join fund_requests fr on fr.id = r.fund_request_id
                where (c.id = ${familyId}::uuid or c.family_id = ${familyId}::uuid) and c.id <> ${campaignId}::uuid and fr.status = 'pending'
              )
              select count(*)::int as n from queued join held using (k)`,
        ),
  ]);
  return { rounds, paid: people?.paid ?? 0, asked: people?.asked ?? 0, stillOpen: open?.n ?? 0 };
}

/** The campaigns list's one read (GET /api/campaigns, GET /api/v1/campaigns with its `pageSize`, and the campaigns page's prefetch). */
export async function readCampaignPage(db: Db, page: number, pace: number = campaignPace(), pageSize = CAMPAIGN_PAGE_SIZE): Promise<Page<CampaignView>> {
  const [list, [total]] = await Promise.all([
    queryRows<CampaignBase>(
      db,
      sql`select ${CAMPAIGN_COLUMNS} from ${CAMPAIGN_FROM} order by c.created_at desc, c.id limit ${pageSize} offset ${(page - 1) * pageSize}`,
    ),
    queryRows<{ n: number }>(db, sql`select count(*)::int as n from campaigns`),
  ]);
  const counts = await countsFor(
    db,
    list.map((c) => c.id),
  );
  return { items: list.map((c) => toView(c, counts.get(c.id), pace)), page, pageSize, total: total?.n ?? 0 };
}

interface RowRecord {
  row: number;
  line: number;
  tag: string;
  amount_text: string;
  amount_naira: string | null;
  description: string;
  business_reference: string | null;
  status: RowStatus;
  request_id: string | null;
  error: string | null;
  left_out: LeftOutReason | null;
  warning: string | null;
  paid_by: string | null;
  paid_amount: string | null;
  settled_amount: string | null;
  paid_at: string | null;
}

function rowWhere(id: string, status: RowFilter | undefined): SQL {
  const base = sql`r.campaign_id = ${id}::uuid`;
  if (!status) return base;
  if (status === "warning") return sql`${base} and r.warning is not null`;
  if (status === "not_paid") return sql`${base} and ${ROW_STATUS} in ('sent', 'declined', 'failed')`;
  return sql`${base} and ${ROW_STATUS} = ${status}`;
}

/** The rows table's one read (GET /api/campaigns/:id/rows, GET /api/v1/campaigns/:id/rows with its `pageSize`, and the campaign page's prefetch). */
export async function readCampaignRows(
  db: Db,
  id: string,
  query: { status?: RowFilter; page: number },
  pageSize = CAMPAIGN_ROWS_PAGE_SIZE,
): Promise<Page<CampaignRowView>> {
  const { items, total } = await listCampaignRows(db, id, query, pageSize);
  return { items, page: query.page, pageSize, total };
}

/** The rows of a campaign, in file order, optionally of one status (or flagged). */
export async function listCampaignRows(
  db: Db,
  id: string,
  query: { status?: RowFilter; page: number },
  pageSize = CAMPAIGN_ROWS_PAGE_SIZE,
): Promise<{ items: CampaignRowView[]; total: number }> {
  if (!/^[0-9a-f-]{36}$/i.test(id)) return { items: [], total: 0 };
  const where = rowWhere(id, query.status);
  const [items, [total]] = await Promise.all([
    queryRows<RowRecord>(
      db,
      sql`select r.row, case when c.parent_id is null and c.plan_id is null then r.row + 1 else r.row end as line,
            r.tag, r.amount_text, r.amount_naira::text as amount_naira, r.description, r.business_reference, ${ROW_STATUS} as status, fr.request_id,
            coalesce(r.error, case when fr.status in ('failed', 'unknown') then fr.error end) as error, r.left_out, r.warning,
            p.customer_name as paid_by, p.actual_amount::text as paid_amount, p.settled_amount::text as settled_amount,
            to_char(p.received_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as paid_at
          from campaign_rows r join campaigns c on c.id = r.campaign_id
            left join fund_requests fr on fr.id = r.fund_request_id left join payments p on p.fund_request_id = fr.id
          where ${where} order by r.row limit ${pageSize} offset ${(query.page - 1) * pageSize}`,
    ),
    queryRows<{ n: number }>(db, sql`select count(*)::int as n from campaign_rows r left join fund_requests fr on fr.id = r.fund_request_id where ${where}`),
  ]);
  return {
    items: items.map((r) => ({
      row: r.row,
      line: Number(r.line),
      tag: r.tag,
      amount: r.amount_naira ?? r.amount_text,
      description: r.description,
      businessReference: r.business_reference,
      status: r.status,
      requestId: r.request_id,
      error: r.error,
      leftOut: r.left_out,
      warning: r.warning,
      paidBy: r.paid_by,
      paidAmount: r.paid_amount,
      settledAmount: r.settled_amount,
      paidAt: r.paid_at,
    })),
    total: total?.n ?? 0,
  };
}

/** The campaign filter's choices: campaigns that have sent something (drafts have no requests), newest first. */
export async function campaignChoices(db: Db): Promise<{ id: string; name: string }[]> {
  return queryRows<{ id: string; name: string }>(db, sql`select id, name from campaigns where status <> 'draft' order by created_at desc limit 200`);
}
