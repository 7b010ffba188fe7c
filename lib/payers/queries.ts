import "server-only";

// The payers' reads (docs/architecture.md "Payers and chasing"; docs/architecture.md "One data path per screen"): one list read for the page, its
// route and its CSV, and one read of a payer with their history. Counts come from payer_stats (kept by triggers),
// so no read here touches every payment.
import { and, asc, desc, eq, gt, ilike, or, sql, type SQL } from "drizzle-orm";

import type { Role } from "@/lib/client/auth/roles";
import type { PayerListQuery } from "@/lib/client/payers/search";
import type { PayerDetail, PayerPage, PayerView } from "@/lib/client/payers/view";
import { CSV_MAX_ROWS } from "@/lib/csv/table";
import { queryRows, type Db } from "@/lib/db/client";
import { likeContains } from "@/lib/db/like";
import { campaignRows, campaigns, doNotAsk, exceptions, fundRequests, payerStats, payments, type PayerStatsRow } from "@/lib/db/schema";
import { maskEmail, maskPhone } from "@/lib/payments/view";

export const PAYER_PAGE_SIZE = 25;
/** The count stops here ("10,000+", as the audit log's): a page's cost must not grow with the number of payers. */
export const PAYER_COUNT_CAP = 10_000;
/** A payer's history shows this many requests and payments (docs/architecture.md "Payers and chasing"). */
const HISTORY = 50;

const requestKey = sql`lower(regexp_replace(${fundRequests.tag}, '^@', ''))`;
const paymentKey = sql`lower(regexp_replace(${payments.customerTag}, '^@', ''))`;

function listWhere(query: PayerListQuery): SQL | undefined {
  const parts: SQL[] = [];
  if (query.q) {
    // ILIKE '%q%' on the bare columns, with q's % and _ taken literally: on Postgres each reads its trigram index
    // (drizzle/0024_i37_payer_search.sql, docs/architecture.md "Payers and chasing") rather than every payer.
    const match = or(ilike(payerStats.tag, likeContains(query.q.toLowerCase())), ilike(payerStats.name, likeContains(query.q)));
    if (match) parts.push(match);
  }
  if (query.filter === "unanswered") parts.push(gt(payerStats.unanswered, 0));
  if (query.filter === "declined") parts.push(gt(payerStats.declined, 0));
  if (query.filter === "paid") parts.push(gt(payerStats.payments, 0));
  // Read from the marks (a few) joined to their payers, not by probing every payer for a mark.
  if (query.filter === "do-not-ask") parts.push(sql`${payerStats.tag} in (select ${doNotAsk.tag} from ${doNotAsk})`);
  return parts.length ? and(...parts) : undefined;
}

function listOrder(query: PayerListQuery): SQL[] {
  switch (query.sort) {
    case "collected":
      return [sql`${payerStats.collected} desc nulls last`, asc(payerStats.tag)];
    case "asked":
      return [sql`${payerStats.asked} desc nulls last`, asc(payerStats.tag)];
    case "tag":
      return [asc(payerStats.tag)];
    default:
      return [sql`${payerStats.lastActivityAt} desc nulls last`, asc(payerStats.tag)];
  }
}

/** Median seconds from asked to answered over each payer's answered requests (by the payer index). */
async function medians(db: Db, tags: string[]): Promise<Map<string, number>> {
  if (tags.length === 0) return new Map();
  const rows = await queryRows<{ tag: string; seconds: number | string | null }>(
    db,
    sql`select t.tag, (select percentile_cont(0.5) within group (order by extract(epoch from (${fundRequests.decidedAt} - ${fundRequests.createdAt})))
          from ${fundRequests}
          where ${requestKey} = t.tag and ${fundRequests.status} in ('accepted', 'declined') and ${fundRequests.decidedAt} is not null) as seconds
        from unnest(${sql.raw("array[")}${sql.join(
          tags.map((t) => sql`${t}`),
          sql`, `,
        )}${sql.raw("]::text[]")}) as t(tag)`,
  );
  const out = new Map<string, number>();
  for (const r of rows) if (r.seconds !== null) out.set(r.tag, Math.round(Number(r.seconds)));
  return out;
}

/** Per payer key among `keys`: their open second payments (duplicate_payment exceptions), for "paid twice". */
async function openSecondPayments(db: Db, keys: string[]): Promise<Map<string, number>> {
  if (keys.length === 0) return new Map();
  const rows = await queryRows<{ k: string; n: number }>(
    db,
    sql`select lower(regexp_replace(${exceptions.tag}, '^@', '')) as k, count(*)::int as n from ${exceptions}
        where ${exceptions.status} = 'open' and ${exceptions.kind} = 'duplicate_payment'
          and lower(regexp_replace(${exceptions.tag}, '^@', '')) in (${sql.join(
            keys.map((k) => sql`${k}`),
            sql`, `,
          )})
        group by 1`,
  );
  return new Map(rows.map((r) => [r.k, Number(r.n)]));
}

function toPayerView(row: PayerStatsRow, flagged: boolean, median: number | null, overpaid = 0): PayerView {
  return {
    tag: row.tag,
    name: row.name,
    asked: row.asked,
    accepted: row.accepted,
    declined: row.declined,
    unanswered: row.unanswered,
    failed: row.failed,
    collected: row.collected,
    payments: row.payments,
    lastActivityAt: row.lastActivityAt?.toISOString() ?? null,
    medianAnswerSeconds: median,
    doNotAsk: flagged,
    overpaid,
  };
}

/** The list's one select (its plan is tested: a search reads the trigram indexes on Postgres). */
export function payerListSelect(db: Db, query: PayerListQuery, limit: number, offset: number) {
  return db
    .select({ stats: payerStats, flagged: sql<boolean>`${doNotAsk.tag} is not null` })
    .from(payerStats)
    .leftJoin(doNotAsk, eq(doNotAsk.tag, payerStats.tag))
    .where(listWhere(query))
    .orderBy(...listOrder(query))
    .limit(limit)
    .offset(offset);
}

async function readPayers(db: Db, query: PayerListQuery, limit: number, offset: number): Promise<PayerView[]> {
  const rows = await payerListSelect(db, query, limit, offset);
  const keys = rows.map((r) => r.stats.tag);
  const [median, twice] = await Promise.all([medians(db, keys), openSecondPayments(db, keys)]);
  return rows.map((r) => toPayerView(r.stats, Boolean(r.flagged), median.get(r.stats.tag) ?? null, twice.get(r.stats.tag) ?? 0));
}

/** The payers list's one read (GET /api/payers and the payers page); past the count's cap, a full page has a next one. */
export async function readPayerPage(db: Db, query: PayerListQuery, cap = PAYER_COUNT_CAP, pageSize = PAYER_PAGE_SIZE): Promise<PayerPage> {
  const where = listWhere(query);
  const { page } = query;
  const [items, [count]] = await Promise.all([
    readPayers(db, query, pageSize, (page - 1) * pageSize),
    queryRows<{ n: number }>(
      db,
      sql`select count(*)::int as n from (select 1 from ${payerStats} ${where ? sql`where ${where}` : sql``} limit ${cap + 1}) as capped`,
    ),
  ]);
  const n = Number(count?.n ?? 0);
  return { items, page, pageSize, total: Math.min(n, cap), totalCapped: n > cap };
}

/** The same list for its CSV: every page, up to the CSV cap. */
export function payersForCsv(db: Db, query: PayerListQuery): Promise<PayerView[]> {
  return readPayers(db, query, CSV_MAX_ROWS, 0);
}

/** One payer with their contact (from their latest payment; masked for viewers, never the bvn) and history; null if unknown. */
export async function readPayerDetail(db: Db, key: string, role: Role): Promise<PayerDetail | null> {
  const [row] = await db
    .select({ stats: payerStats, mark: doNotAsk })
    .from(payerStats)
    .leftJoin(doNotAsk, eq(doNotAsk.tag, payerStats.tag))
    .where(eq(payerStats.tag, key))
    .limit(1);
  if (!row) return null;
  const [requests, paid, families] = await Promise.all([
    db
      .select({ request: fundRequests, campaignId: campaigns.id, campaignName: campaigns.name })
      .from(fundRequests)
      .leftJoin(campaignRows, eq(campaignRows.fundRequestId, fundRequests.id))
      .leftJoin(campaigns, eq(campaigns.id, campaignRows.campaignId))
      .where(sql`${requestKey} = ${key}`)
      .orderBy(sql`${requestKey} desc`, desc(fundRequests.createdAt))
      .limit(HISTORY),
    db
      .select()
      .from(payments)
      .where(sql`${paymentKey} = ${key}`)
      .orderBy(sql`${paymentKey} desc`, desc(payments.receivedAt))
      .limit(HISTORY),
    db
      .selectDistinct({ id: campaigns.id, name: campaigns.name, round: campaigns.round, createdAt: campaigns.createdAt })
      .from(campaignRows)
      .innerJoin(campaigns, eq(campaigns.id, campaignRows.campaignId))
      .where(sql`lower(regexp_replace(${campaignRows.tag}, '^@', '')) = ${key}`)
      .orderBy(desc(campaigns.createdAt))
      .limit(HISTORY),
  ]);
  const [medianOf, twice] = await Promise.all([medians(db, [key]), openSecondPayments(db, [key])]);
  const median = medianOf.get(key) ?? null;
  const latest = paid[0];
  const masked = role === "viewer";
  return {
    payer: toPayerView(row.stats, row.mark !== null, median, twice.get(key) ?? 0),
    contact: latest
      ? {
          name: latest.customerName,
          email: masked ? maskEmail(latest.customerEmail) : latest.customerEmail,
          phone: masked ? maskPhone(latest.customerPhone) : latest.customerPhone,
        }
      : null,
    doNotAsk: row.mark ? { note: row.mark.note, markedBy: row.mark.markedByName, markedAt: row.mark.markedAt.toISOString() } : null,
    requests: requests.map(({ request: r, campaignId, campaignName }) => ({
      id: r.id,
      requestId: r.requestId,
      amount: r.amount,
      description: r.description,
      status: r.status,
      createdAt: r.createdAt.toISOString(),
      decidedAt: r.decidedAt?.toISOString() ?? null,
      campaign: campaignId && campaignName ? { id: campaignId, name: campaignName } : null,
    })),
    payments: paid.map((p) => ({
      uuid: p.uuid,
      amount: p.amount,
      fees: p.fees,
      settledAmount: p.settledAmount,
      description: p.description,
      verification: p.verification,
      recordedByHand: p.source === "hand",
      receivedAt: p.receivedAt.toISOString(),
    })),
    campaigns: families.map((c) => ({ id: c.id, name: c.name, round: c.round })),
  };
}
