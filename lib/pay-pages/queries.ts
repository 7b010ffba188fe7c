import "server-only";

import { and, desc, eq, gte, sql, type SQL } from "drizzle-orm";

import { nairaText } from "@/lib/client/money";
import type { PayPageAmount } from "@/lib/client/pay-pages/schemas";
import type { PayPageCounts, PayPageState, PayPageView, PayStatusView, PublicPayPage } from "@/lib/client/pay-pages/view";
import { dayOf, startOfDay } from "@/lib/client/time/zone";
import { getConfig } from "@/lib/config";
import { queryRows, type Db } from "@/lib/db/client";
import { payPages, payPageSubmissions, plans, staff, type PayPageRow } from "@/lib/db/schema";
import { getSettings } from "@/lib/settings/repo";

// What the dashboard, the public page and the payer's status link read of pay pages (docs/architecture.md "Pay pages").

interface CountsRow {
  page_id: string;
  submissions: number;
  requests: number;
  accepted: number;
  declined: number;
  collected: string;
}

/** Submissions, requests sent, answers and money collected of the given pages, one pass over their submissions. */
async function countsOf(db: Db, ids: string[]): Promise<Map<string, Omit<PayPageCounts, "views" | "conversion">>> {
  if (ids.length === 0) return new Map();
  const rows = await queryRows<CountsRow>(
    db,
    sql`select s.page_id::text as page_id, count(*)::int as submissions,
          count(*) filter (where r.status is not null and r.status <> 'failed')::int as requests,
          count(*) filter (where r.status = 'accepted')::int as accepted,
          count(*) filter (where r.status = 'declined')::int as declined,
          coalesce(sum(p.settled_amount), 0)::numeric(18,2)::text as collected
        from pay_page_submissions s
        left join fund_requests r on r.id = s.fund_request_id
        left join payments p on p.fund_request_id = r.id
        where s.page_id in (${sql.join(
          ids.map((id) => sql`${id}::uuid`),
          sql`, `,
        )})
        group by s.page_id`,
  );
  return new Map(
    rows.map((r) => [r.page_id, { submissions: r.submissions, requests: r.requests, accepted: r.accepted, declined: r.declined, collected: r.collected }]),
  );
}

export function amountOf(row: Pick<PayPageRow, "amountFixed" | "amountMin" | "amountMax">): PayPageAmount {
  if (row.amountFixed !== null) return { fixed: row.amountFixed };
  return { min: row.amountMin ?? "0.00", max: row.amountMax ?? "0.00" };
}

/** Whether a page takes payments now: turned on, before its expiry, under its most payments. */
export function stateOf(row: Pick<PayPageRow, "active" | "expiresAt" | "maxPayments">, accepted: number, now: Date): PayPageState {
  if (!row.active) return "off";
  if (row.expiresAt && row.expiresAt.getTime() <= now.getTime()) return "expired";
  if (row.maxPayments !== null && accepted >= row.maxPayments) return "full";
  return "open";
}

export function publicUrl(slug: string): string {
  return `${getConfig().appUrl.replace(/\/$/, "")}/pay/${slug}`;
}

interface PageRow {
  page: PayPageRow;
  planName: string | null;
  creatorName: string | null;
}

async function pageRows(db: Db, where?: SQL): Promise<PageRow[]> {
  return db
    .select({ page: payPages, planName: plans.name, creatorName: staff.name })
    .from(payPages)
    .leftJoin(plans, eq(plans.id, payPages.planId))
    .leftJoin(staff, eq(staff.id, payPages.createdBy))
    .where(where)
    .orderBy(desc(payPages.createdAt))
    .limit(500);
}

function toView(row: PageRow, counts: Omit<PayPageCounts, "views" | "conversion"> | undefined, now: Date): PayPageView {
  const { page } = row;
  const c = counts ?? { submissions: 0, requests: 0, accepted: 0, declined: 0, collected: "0.00" };
  return {
    id: page.id,
    slug: page.slug,
    url: publicUrl(page.slug),
    title: page.title,
    description: page.description,
    amount: amountOf(page),
    fields: page.fields,
    plan: page.planId && row.planName !== null ? { id: page.planId, name: row.planName } : null,
    active: page.active,
    expiresAt: page.expiresAt?.toISOString() ?? null,
    maxPayments: page.maxPayments,
    successMessage: page.successMessage,
    dailyLimit: page.dailyLimit,
    state: stateOf(page, c.accepted, now),
    counts: { views: page.views, ...c, conversion: c.submissions === 0 ? null : c.accepted / c.submissions },
    createdBy: page.createdBy && row.creatorName !== null ? { id: page.createdBy, name: row.creatorName } : null,
    createdAt: page.createdAt.toISOString(),
    updatedAt: page.updatedAt.toISOString(),
  };
}

/** Every pay page, newest first, with its counts (a team has tens of pages; the list is capped at 500). */
export async function listPayPages(db: Db, now = new Date()): Promise<PayPageView[]> {
  const rows = await pageRows(db);
  const counts = await countsOf(
    db,
    rows.map((r) => r.page.id),
  );
  return rows.map((r) => toView(r, counts.get(r.page.id), now));
}

export async function getPayPage(db: Db, id: string, now = new Date()): Promise<PayPageView | null> {
  if (!/^[0-9a-f-]{36}$/i.test(id)) return null;
  const rows = await pageRows(db, eq(payPages.id, id));
  const row = rows[0];
  if (!row) return null;
  return toView(row, (await countsOf(db, [id])).get(id), now);
}

/** Payments accepted through a page: what its most payments counts. */
export async function acceptedCount(db: Db, pageId: string): Promise<number> {
  const [row] = await queryRows<{ n: number }>(
    db,
    sql`select count(*)::int as n from pay_page_submissions s join fund_requests r on r.id = s.fund_request_id
        where s.page_id = ${pageId}::uuid and r.status = 'accepted'`,
  );
  return row?.n ?? 0;
}

/**
 * Requests of a page that may still be paid or were: accepted, pending, sending or of unknown outcome. The sender
 * checks most payments against these, so a page of one payment never has ten out at once.
 */
export async function committedCount(db: Db, pageId: string): Promise<number> {
  const [row] = await queryRows<{ n: number }>(
    db,
    sql`select count(*)::int as n from pay_page_submissions s join fund_requests r on r.id = s.fund_request_id
        where s.page_id = ${pageId}::uuid and r.status in ('accepted', 'pending', 'sending', 'unknown')`,
  );
  return row?.n ?? 0;
}

/** Submissions a page took today, in TIMEZONE days: what its daily limit counts. */
export async function submittedToday(tx: Db, pageId: string, now: Date): Promise<number> {
  const timeZone = getConfig().timeZone;
  const [row] = await tx
    .select({ n: sql<number>`count(*)::int` })
    .from(payPageSubmissions)
    .where(and(eq(payPageSubmissions.pageId, pageId), gte(payPageSubmissions.createdAt, startOfDay(dayOf(now, timeZone), timeZone))));
  return row?.n ?? 0;
}

/** The public page by its slug, counting the view; null when there is none. Nothing about anyone is read. */
export async function viewPublicPage(db: Db, slug: string, now = new Date()): Promise<PublicPayPage | null> {
  if (!/^[a-z0-9-]{3,60}$/.test(slug)) return null;
  const [page] = await db
    .update(payPages)
    .set({ views: sql`${payPages.views} + 1` })
    .where(eq(payPages.slug, slug))
    .returning();
  if (!page) return null;
  const accepted = page.maxPayments === null ? 0 : await acceptedCount(db, page.id);
  const state = stateOf(page, accepted, now);
  return {
    slug: page.slug,
    businessName: (await getSettings(db)).businessName,
    title: page.title,
    description: page.description,
    amount: amountOf(page),
    fields: page.fields.map((f) => ({ label: f.label, required: f.required })),
    // Past its daily limit, the page says so before anyone types a tag.
    state: state === "open" && (await submittedToday(db, page.id, now)) >= page.dailyLimit ? "today_full" : state,
  };
}

/**
 * The payer's status link. Queued, held, refused and pending all read `waiting`, so the link never tells whether a tag
 * exists or was held back; only the tag's own answer (paid, declined) moves it.
 */
export async function readPayStatus(db: Db, slug: string, token: string): Promise<PayStatusView | null> {
  if (!/^[A-Za-z0-9_-]{16,64}$/.test(token)) return null;
  const rows = await queryRows<{
    title: string;
    success_message: string;
    amount: string;
    status: string;
    request_status: string | null;
    plan_name: string | null;
  }>(
    db,
    sql`select pp.title, pp.success_message, s.amount::text as amount, s.status, r.status as request_status, pl.name as plan_name
        from pay_page_submissions s join pay_pages pp on pp.id = s.page_id left join plans pl on pl.id = pp.plan_id
        left join fund_requests r on r.id = s.fund_request_id
        where s.token = ${token} and pp.slug = ${slug}`,
  );
  const row = rows[0];
  if (!row) return null;
  const state: PayStatusView["state"] = row.request_status === "accepted" ? "paid" : row.request_status === "declined" ? "declined" : "waiting";
  return {
    state,
    title: row.title,
    businessName: (await getSettings(db)).businessName,
    amount: row.amount,
    amountText: nairaText(row.amount),
    successMessage: state === "paid" ? row.success_message : null,
    plan: state === "paid" ? row.plan_name : null,
  };
}
