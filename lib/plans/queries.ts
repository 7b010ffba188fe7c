import "server-only";

// What the plan routes and pages read (docs/architecture.md, "Plans"): the list, one plan with its periods and a page
// of its roster, and the dues board: members × periods over the periods' campaign families, each cell the best
// outcome, a page of members at a time.
import { desc, sql, type SQL } from "drizzle-orm";

import { getCampaignView } from "@/lib/campaigns/queries";
import type { Page } from "@/lib/client/http/page-param";
import { nextRun, recentPeriods } from "@/lib/client/plans/schedule";
import {
  BOARD_PAGE_SIZE,
  CELL_STATUSES,
  PLAN_PAGE_SIZE,
  ROSTER_PAGE_SIZE,
  type BoardView,
  type CellStatus,
  type PlanListItem,
  type PlanMemberView,
  type PlanPeriodView,
  type PlanView,
} from "@/lib/client/plans/view";
import { queryRows, type Db } from "@/lib/db/client";
import { plans, type PlanRow } from "@/lib/db/schema";

import { scheduleOf } from "./periods";
import { findPlan } from "./repo";

const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());

function nextOf(plan: PlanRow, now: Date) {
  return plan.status === "active" ? nextRun(scheduleOf(plan), now) : null;
}

/** The plans list's one read (GET /api/plans, GET /api/v1/plans with its `pageSize`, and the plans page's prefetch). */
export async function readPlanPage(db: Db, page: number, now = new Date(), pageSize = PLAN_PAGE_SIZE): Promise<Page<PlanListItem>> {
  const rows = await db
    .select()
    .from(plans)
    .orderBy(desc(plans.createdAt), desc(plans.id))
    .limit(pageSize)
    .offset((page - 1) * pageSize);
  const ids = rows.map((r) => r.id);
  const facts =
    ids.length === 0
      ? []
      : await queryRows<{ plan_id: string; members: number; last_period: string | null }>(
          db,
          sql`select p.id as plan_id,
                (select count(*)::int from plan_members m where m.plan_id = p.id and m.removed_at is null and m.error is null) as members,
                (select pp.period from plan_periods pp where pp.plan_id = p.id and pp.status = 'made' order by pp.due_at desc limit 1) as last_period
              from plans p where p.id in (${sql.join(
                ids.map((id) => sql`${id}::uuid`),
                sql`, `,
              )})`,
        );
  const byId = new Map(facts.map((f) => [f.plan_id, f]));
  const [total] = await queryRows<{ n: number }>(db, sql`select count(*)::int as n from plans`);
  return {
    items: rows.map((r) => ({
      id: r.id,
      name: r.name,
      status: r.status,
      frequency: r.frequency,
      members: byId.get(r.id)?.members ?? 0,
      nextRunAt: iso(nextOf(r, now)?.dueAt ?? null),
      lastPeriod: byId.get(r.id)?.last_period ?? null,
    })),
    page,
    pageSize,
    total: total?.n ?? 0,
  };
}

/** Which page of a plan's roster its view carries (`pageSize` for tests; the page and the API take `ROSTER_PAGE_SIZE`). */
export type RosterPaging = { page: number; pageSize?: number };

/**
 * One plan for its page and its routes (docs/architecture.md "Plans"): its facts, its last 24 periods with their
 * campaigns' counts, and one page of its roster in row order. The member counts and what a run would ask are summed in
 * SQL over the whole roster whatever the page, so the view's size stays the same however large the plan.
 */
export async function getPlanView(db: Db, id: string, now = new Date(), paging: RosterPaging = { page: 1 }): Promise<PlanView | null> {
  const plan = await findPlan(db, id);
  if (!plan) return null;
  const pageSize = paging.pageSize ?? ROSTER_PAGE_SIZE;
  const [members] = await queryRows<{ valid: number; invalid: number; askable: number; asked: string }>(
    db,
    sql`select count(*) filter (where m.error is null)::int as valid, count(*) filter (where m.error is not null)::int as invalid,
          count(*) filter (where m.error is null and m.amount_naira is not null and d.tag is null)::int as askable,
          coalesce(sum(m.amount_naira) filter (where m.error is null and d.tag is null), 0)::numeric(20,2)::text as asked
        from plan_members m left join do_not_ask d on d.tag = m.tag_key
        where m.plan_id = ${plan.id}::uuid and m.removed_at is null`,
  );
  const periodRows = await queryRows<{ period: string; due_at: string; status: "made" | "missed"; campaign_id: string | null; chase_rounds: number }>(
    db,
    sql`select period, due_at, status, campaign_id, chase_rounds from plan_periods where plan_id = ${plan.id}::uuid order by due_at desc limit 24`,
  );
  const periods: PlanPeriodView[] = [];
  for (const p of periodRows) {
    const campaign = p.campaign_id ? await getCampaignView(db, p.campaign_id) : null;
    periods.push({
      period: p.period,
      dueAt: iso(p.due_at) ?? "",
      status: p.status,
      campaignId: p.campaign_id,
      counts: campaign?.counts ?? null,
      amounts: campaign?.amounts ?? null,
      chaseRounds: p.chase_rounds,
    });
  }
  const roster = await queryRows<{ row: number; tag: string; amount: string | null; description: string; error: string | null; do_not_ask: boolean }>(
    db,
    sql`select m.row, m.tag, m.amount_naira::text as amount, m.description, m.error, d.tag is not null as do_not_ask
        from plan_members m left join do_not_ask d on d.tag = m.tag_key
        where m.plan_id = ${plan.id}::uuid and m.removed_at is null
        order by m.row
        limit ${pageSize} offset ${(paging.page - 1) * pageSize}`,
  );
  const next = nextOf(plan, now);
  return {
    id: plan.id,
    name: plan.name,
    status: plan.status,
    frequency: plan.frequency,
    day: plan.day,
    sendAt: plan.sendAt,
    timeZone: plan.timeZone,
    startsOn: plan.startsOn,
    endsOn: plan.endsOn,
    descriptionTemplate: plan.descriptionTemplate,
    chase:
      plan.chaseAfterHours !== null && plan.chaseTimes !== null && plan.chaseInclude
        ? { afterHours: plan.chaseAfterHours, times: plan.chaseTimes, include: plan.chaseInclude }
        : null,
    nextRunAt: iso(next?.dueAt ?? null),
    nextPeriod: next?.period ?? null,
    members: members?.valid ?? 0,
    invalidMembers: members?.invalid ?? 0,
    createdAt: plan.createdAt.toISOString(),
    periods,
    roster: roster.map((m): PlanMemberView => ({
      row: m.row,
      tag: m.tag,
      amount: m.amount,
      description: m.description,
      error: m.error,
      doNotAsk: m.do_not_ask,
    })),
    rosterPage: paging.page,
    rosterPageSize: pageSize,
    rosterTotal: (members?.valid ?? 0) + (members?.invalid ?? 0),
    askable: { count: members?.askable ?? 0, amount: members?.asked ?? "0.00" },
  };
}

interface CellRecord {
  period: string;
  status: CellStatus;
  amount: string | null;
  request_id: string | null;
}

interface PersonRecord {
  tag: string;
  name: string | null;
  amount: string | null;
  removed: boolean;
  owing: string;
  cells: CellRecord[] | null;
}

/** Cents of a decimal naira string, exact (money is never summed in floating point). */
const kobo = (naira: string | null) => (naira === null ? 0n : BigInt(naira.replace(".", "")));

/** Which members of the board to read: one page (the page and the API), or `"all"` (its CSV). */
export type BoardPaging = { page: number; pageSize?: number } | "all";

/**
 * The board's cells as SQL (`best`): per period shown and payer key, the best outcome over the period's rounds.
 */
function bestCells(planId: string, keys: SQL): SQL {
  const rank = sql.raw(`array_position(array[${CELL_STATUSES.map((s) => `'${s}'`).join(",")}]::text[], status)`);
  return sql`roots as (
      select period, campaign_id from plan_periods where plan_id = ${planId}::uuid and period in (${keys}) and campaign_id is not null
    ), family as (
      select r.period, c.id, c.round from roots r join campaigns c on c.id = r.campaign_id
      union all
      select r.period, c.id, c.round from roots r join campaigns c on c.family_id = r.campaign_id
    ), outcomes as (
      select f.period, lower(regexp_replace(cr.tag, '^@', '')) as k, cr.tag, cr.amount_naira as amount, fr.request_id, f.round,
        case
          when fr.status = 'accepted' then 'paid'
          when fr.status in ('pending', 'sending', 'unknown') or cr.status in ('queued', 'claimed') then 'pending'
          when fr.status = 'declined' then 'declined'
          when cr.status = 'failed' or fr.status = 'failed' then 'failed'
          when cr.status = 'skipped' then 'skipped'
          else 'not_asked'
        end as status
      from family f join campaign_rows cr on cr.campaign_id = f.id
      left join fund_requests fr on fr.id = cr.fund_request_id
    ), best as (
      select distinct on (period, k) period, k, tag, amount, status, request_id
      from outcomes order by period, k, ${rank}, round desc
    )`;
}

/**
 * The dues board (docs/architecture.md "Plans"): the plan's last `count` periods up to now, one page of its members
 * (and of anyone asked in those periods since removed), each cell the best outcome over the period's rounds, what each
 * owes, and per period the amount asked, collected (settled payments of its requests) and the share of the asked
 * amount paid. The totals are summed in SQL over every member whatever the page and the filter; only the rows page,
 * so a page's size stays the same however large the plan (docs/architecture.md "Plans").
 */
export async function readBoard(
  db: Db,
  plan: PlanRow,
  count: number,
  owingOnly: boolean,
  now = new Date(),
  paging: BoardPaging = { page: 1 },
): Promise<BoardView> {
  const periods = recentPeriods(scheduleOf(plan), now, count).map((p) => p.period);
  const keys =
    periods.length === 0
      ? sql`null`
      : sql.join(
          periods.map((p) => sql`${p}`),
          sql`, `,
        );
  const page = paging === "all" ? 1 : paging.page;
  const pageSize = paging === "all" ? null : (paging.pageSize ?? BOARD_PAGE_SIZE);
  const window = pageSize === null ? sql`` : sql`limit ${pageSize} offset ${(page - 1) * pageSize}`;
  const [[people], totals, collected] = await Promise.all([
    // Live members first (roster order); a removed member appears once, only if asked in a shown period; then anyone
    // asked in a shown period who is no member at all (earliest period first).
    queryRows<{ total: number; rows: PersonRecord[] | null }>(
      db,
      sql`with ${bestCells(plan.id, keys)}, asked as (
            select k, min(period) as first_period, (array_agg(tag order by period))[1] as tag,
              coalesce(sum(amount) filter (where status in ('pending', 'declined', 'failed')), 0) as owing
            from best group by k
          ), picked as (
            select distinct on (m.tag_key) m.tag_key as k, m.tag, m.amount_naira::text as amount, m.removed_at is not null as removed, m.row
            from plan_members m where m.plan_id = ${plan.id}::uuid and m.error is null
            order by m.tag_key, m.removed_at is not null, m.row
          ), people as (
            select p.k, p.tag, case when p.removed then null else p.amount end as amount, p.removed, ps.name,
              case when p.removed then 1 else 0 end as grp, p.row as roster_row, null::text as first_period, coalesce(a.owing, 0) as owing
            from picked p left join asked a on a.k = p.k left join payer_stats ps on ps.tag = p.k
            where not p.removed or a.k is not null
            union all
            select a.k, a.tag, null, true, null, 2, null, a.first_period, a.owing
            from asked a where not exists (select 1 from picked p where p.k = a.k)
          ), shown as (
            select * from people ${owingOnly ? sql`where owing <> 0` : sql``}
          ), page as (
            select * from shown order by grp, roster_row, first_period, k ${window}
          ), page_cells as (
            select b.k, json_agg(json_build_object('period', b.period, 'status', b.status, 'amount', b.amount::text, 'request_id', b.request_id)) as cells
            from best b where b.k in (select k from page) group by b.k
          )
          select (select count(*)::int from shown) as total,
            (select json_agg(json_build_object('tag', p.tag, 'name', p.name, 'amount', p.amount, 'removed', p.removed,
                'owing', p.owing::numeric(20,2)::text, 'cells', c.cells) order by p.grp, p.roster_row, p.first_period, p.k)
              from page p left join page_cells c on c.k = p.k) as rows`,
    ),
    queryRows<{ period: string; asked: string; paid: string }>(
      db,
      sql`with ${bestCells(plan.id, keys)}
          select period,
            coalesce(sum(amount) filter (where status not in ('not_asked', 'skipped')), 0)::numeric(20,2)::text as asked,
            coalesce(sum(amount) filter (where status = 'paid'), 0)::numeric(20,2)::text as paid
          from best group by period`,
    ),
    queryRows<{ period: string; collected: string }>(
      db,
      sql`with roots as (
            select period, campaign_id from plan_periods where plan_id = ${plan.id}::uuid and period in (${keys}) and campaign_id is not null
          ), family as (
            select r.period, c.id from roots r join campaigns c on c.id = r.campaign_id
            union all
            select r.period, c.id from roots r join campaigns c on c.family_id = r.campaign_id
          )
          select f.period, coalesce(sum(p.settled_amount), 0)::numeric(20,2)::text as collected
          from family f join campaign_rows cr on cr.campaign_id = f.id
          join payments p on p.fund_request_id = cr.fund_request_id
          group by f.period`,
    ),
  ]);

  const members = (people?.rows ?? []).map((m) => {
    const byPeriod = new Map((m.cells ?? []).map((c) => [c.period, c]));
    return {
      tag: m.tag,
      name: m.name,
      amount: m.amount,
      owing: m.owing,
      removed: m.removed,
      cells: periods.map((period) => {
        const c = byPeriod.get(period);
        return { period, status: c?.status ?? ("not_asked" as CellStatus), amount: c?.amount ?? null, requestId: c?.request_id ?? null };
      }),
    };
  });
  const totalBy = new Map(totals.map((t) => [t.period, t]));
  const collectedBy = new Map(collected.map((c) => [c.period, c.collected]));
  return {
    periods,
    members,
    totals: periods.map((period) => {
      const a = kobo(totalBy.get(period)?.asked ?? null);
      const p = kobo(totalBy.get(period)?.paid ?? null);
      return {
        period,
        asked: totalBy.get(period)?.asked ?? "0.00",
        collected: collectedBy.get(period) ?? "0.00",
        rate: a === 0n ? null : Number((p * 10_000n) / a) / 10_000,
      };
    }),
    page,
    pageSize: pageSize ?? members.length,
    total: Number(people?.total ?? 0),
  };
}
