import "server-only";

// The requests list's reads (docs/architecture.md, "One data path per screen"): one filter (status, tag, campaign,
// days in TIMEZONE) for the page, its totals and its CSV, so the three can never disagree.
import { and, desc, eq, gte, ilike, lt, or, sql, type SQL } from "drizzle-orm";

import type { RequestListQuery } from "@/lib/client/requests/schemas";
import { instantsOfDays } from "@/lib/client/time/day-range";
import { CSV_MAX_ROWS } from "@/lib/csv/table";
import { queryRows, type Db } from "@/lib/db/client";
import { escapeLike, likeContains } from "@/lib/db/like";
import { campaignRows, campaigns, fundRequests, staff } from "@/lib/db/schema";

import { CAMPAIGN_KEY_PREFIX } from "./keys";
import { toRequestView, type FundRequestView, type RequestPage, type RequestSum, type RequestTotals } from "./view";

export const REQUEST_PAGE_SIZE = 25;

const STATUSES: FundRequestView["status"][] = ["sending", "pending", "accepted", "declined", "failed", "unknown"];
const CAMPAIGN_KEY_LIKE = `${escapeLike(CAMPAIGN_KEY_PREFIX)}%`;

function listWhere(query: RequestListQuery, timeZone: string): SQL | undefined {
  const parts: SQL[] = [];
  if (query.status) parts.push(eq(fundRequests.status, query.status));
  if (query.tag) parts.push(ilike(fundRequests.tag, likeContains(query.tag)));
  if (query.campaign === "none") {
    // By the key, which the request has from its first insert (the row is linked only once its send returns).
    const single = or(sql`${fundRequests.idempotencyKey} is null`, sql`${fundRequests.idempotencyKey} not like ${CAMPAIGN_KEY_LIKE}`);
    if (single) parts.push(single);
  } else if (query.campaign) {
    // Through the campaign's rows: campaign_rows (campaign_id, …) finds them, its unique fund_request_id links each.
    parts.push(
      sql`exists (select 1 from ${campaignRows} where ${campaignRows.fundRequestId} = ${fundRequests.id} and ${campaignRows.campaignId} = ${query.campaign}::uuid)`,
    );
  }
  const { from, to } = instantsOfDays(query, timeZone);
  if (from) parts.push(gte(fundRequests.createdAt, from));
  if (to) parts.push(lt(fundRequests.createdAt, to));
  return parts.length ? and(...parts) : undefined;
}

/** Count and amount asked for the whole filter and for each status in it, summed exactly by the database. */
async function listTotals(db: Db, condition: SQL | undefined): Promise<RequestTotals> {
  const rows = await queryRows<{ status: FundRequestView["status"] | null; n: number; amount: string }>(
    db,
    sql`select ${fundRequests.status} as status, count(*)::int as n, coalesce(sum(${fundRequests.amount}), 0)::numeric(20,2)::text as amount
        from ${fundRequests} ${condition ? sql`where ${condition}` : sql``}
        group by grouping sets ((${fundRequests.status}), ())`,
  );
  const zero = (): RequestSum => ({ count: 0, amount: "0.00" });
  const byStatus = Object.fromEntries(STATUSES.map((s) => [s, zero()])) as RequestTotals["byStatus"];
  let all = zero();
  for (const r of rows) {
    const sum = { count: Number(r.n), amount: r.amount };
    if (r.status === null) all = sum;
    else byStatus[r.status] = sum;
  }
  return { ...all, byStatus };
}

/** The requests list's one read (GET /api/requests, and the prefetch of the requests page and the overview). */
/** `pageSize`: the dashboard's 25, or what an API caller asked for (at most 100). */
export async function readRequestPage(db: Db, query: RequestListQuery, timeZone: string, pageSize = REQUEST_PAGE_SIZE): Promise<RequestPage> {
  const condition = listWhere(query, timeZone);
  const [rows, totals] = await Promise.all([
    db
      .select({ request: fundRequests, createdByName: staff.name })
      .from(fundRequests)
      .leftJoin(staff, eq(staff.id, fundRequests.createdBy))
      .where(condition)
      .orderBy(desc(fundRequests.createdAt), desc(fundRequests.id))
      .limit(pageSize)
      .offset((query.page - 1) * pageSize),
    listTotals(db, condition),
  ]);
  return {
    items: rows.map((r) => toRequestView(r.request, r.createdByName)),
    page: query.page,
    pageSize,
    total: totals.count,
    totals,
  };
}

/** The whole filter (paging ignored) for GET /api/requests?format=csv, newest first, with each request's campaign. */
export async function requestsForCsv(db: Db, query: RequestListQuery, timeZone: string): Promise<FundRequestView[]> {
  const rows = await db
    .select({ request: fundRequests, createdByName: staff.name, campaignId: campaigns.id, campaignName: campaigns.name })
    .from(fundRequests)
    .leftJoin(staff, eq(staff.id, fundRequests.createdBy))
    .leftJoin(campaignRows, eq(campaignRows.fundRequestId, fundRequests.id))
    .leftJoin(campaigns, eq(campaigns.id, campaignRows.campaignId))
    .where(listWhere(query, timeZone))
    .orderBy(desc(fundRequests.createdAt), desc(fundRequests.id))
    .limit(CSV_MAX_ROWS);
  return rows.map((r) => ({
    ...toRequestView(r.request, r.createdByName),
    campaign: r.campaignId && r.campaignName !== null ? { id: r.campaignId, name: r.campaignName } : null,
  }));
}
