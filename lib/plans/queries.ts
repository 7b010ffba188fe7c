import "server-only";

// What the plan routes and pages read (docs/architecture.md, "Plans"): the list, one plan with its periods, and the
// dues board: members × periods in one query over the periods' campaign families, each cell the best outcome.
import { desc, sql } from "drizzle-orm";

import { getCampaignView } from "@/lib/campaigns/queries";
import type { Page } from "@/lib/client/http/page-param";
import { nextRun, recentPeriods } from "@/lib/client/plans/schedule";
import {
  CELL_STATUSES,
  PLAN_PAGE_SIZE,
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

export async function readPlanPage(db: Db, page: number, now = new Date()): Promise<Page<PlanListItem>> {
  const rows = await db
    .select()
    .from(plans)
    .orderBy(desc(plans.createdAt), desc(plans.id))
    .limit(PLAN_PAGE_SIZE)
    .offset((page - 1) * PLAN_PAGE_SIZE);
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
    pageSize: PLAN_PAGE_SIZE,
    total: total?.n ?? 0,
  };
}

export async function getPlanView(db: Db, id: string, now = new Date()): Promise<PlanView | null> {
  const plan = await findPlan(db, id);
  if (!plan) return null;
  const [members] = await queryRows<{ valid: number; invalid: number }>(
    db,
    sql`select count(*) filter (where error is null)::int as valid, count(*) filter (where error is not null)::int as invalid
        from plan_members where plan_id = ${plan.id}::uuid and removed_at is null`,
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
        order by m.row`,
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
  };
}

interface CellRecord {
  period: string;
  k: string;
  tag: string;
  amount: string | null;
  status: CellStatus;
  request_id: string | null;
}

interface MemberRecord {
  k: string;
  tag: string;
  amount: string | null;
  removed: boolean;
  name: string | null;
}

/** Cents of a decimal naira string, exact (money is never summed in floating point). */
const kobo = (naira: string | null) => (naira === null ? 0n : BigInt(naira.replace(".", "")));
const naira = (k: bigint) => {
  const sign = k < 0n ? "-" : "";
  const a = k < 0n ? -k : k;
  return `${sign}${a / 100n}.${String(a % 100n).padStart(2, "0")}`;
};

/**
 * The dues board (docs/architecture.md "Plans"): the plan's last `count` periods up to now, its members (and anyone asked in those
 * periods since removed), each cell the best outcome over the period's rounds, what each owes, and per period the
 * amount asked, collected (settled payments of its requests) and the share of the asked amount paid.
 */
export async function readBoard(db: Db, plan: PlanRow, count: number, owingOnly: boolean, now = new Date()): Promise<BoardView> {
  const periods = recentPeriods(scheduleOf(plan), now, count).map((p) => p.period);
  const keys =
    periods.length === 0
      ? sql`null`
      : sql.join(
          periods.map((p) => sql`${p}`),
          sql`, `,
        );
  const rank = sql.raw(`array_position(array[${CELL_STATUSES.map((s) => `'${s}'`).join(",")}]::text[], status)`);
  const [cells, members, collected] = await Promise.all([
    queryRows<CellRecord>(
      db,
      sql`with roots as (
            select period, campaign_id from plan_periods where plan_id = ${plan.id}::uuid and period in (${keys}) and campaign_id is not null
          ), family as (
            select r.period, c.id, c.round from roots r join campaigns c on c.id = r.campaign_id
            union all
            select r.period, c.id, c.round from roots r join campaigns c on c.family_id = r.campaign_id
          ), outcomes as (
            select f.period, lower(regexp_replace(cr.tag, '^@', '')) as k, cr.tag, cr.amount_naira::text as amount, fr.request_id, f.round,
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
          )
          select distinct on (period, k) period, k, tag, amount, status, request_id
          from outcomes order by period, k, ${rank}, round desc`,
    ),
    queryRows<MemberRecord>(
      db,
      sql`select m.tag_key as k, m.tag, m.amount_naira::text as amount, m.removed_at is not null as removed, ps.name
          from plan_members m left join payer_stats ps on ps.tag = m.tag_key
          where m.plan_id = ${plan.id}::uuid and m.error is null
          order by m.removed_at is not null, m.row`,
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

  const byMember = new Map<string, Map<string, CellRecord>>();
  for (const c of cells) {
    const row = byMember.get(c.k) ?? new Map<string, CellRecord>();
    row.set(c.period, c);
    byMember.set(c.k, row);
  }
  // Live members first (roster order); a removed member appears once, only if asked in a shown period.
  const seen = new Set<string>();
  const people: MemberRecord[] = [];
  for (const m of members) {
    if (seen.has(m.k) || (m.removed && !byMember.has(m.k))) continue;
    seen.add(m.k);
    people.push(m);
  }
  for (const [k, row] of byMember) {
    if (seen.has(k)) continue;
    const any = [...row.values()][0];
    people.push({ k, tag: any?.tag ?? k, amount: null, removed: true, name: null });
  }

  const asked = new Map<string, bigint>();
  const paid = new Map<string, bigint>();
  const board = people.map((m) => {
    let owing = 0n;
    const cellsOf = periods.map((period) => {
      const c = byMember.get(m.k)?.get(period);
      const status: CellStatus = c?.status ?? "not_asked";
      const amount = c?.amount ?? null;
      if (status !== "not_asked" && status !== "skipped") asked.set(period, (asked.get(period) ?? 0n) + kobo(amount));
      if (status === "paid") paid.set(period, (paid.get(period) ?? 0n) + kobo(amount));
      if (status === "pending" || status === "declined" || status === "failed") owing += kobo(amount);
      return { period, status, amount, requestId: c?.request_id ?? null };
    });
    return { tag: m.tag, name: m.name, amount: m.removed ? null : m.amount, owing: naira(owing), removed: m.removed, cells: cellsOf };
  });
  const collectedBy = new Map(collected.map((c) => [c.period, c.collected]));
  return {
    periods,
    members: owingOnly ? board.filter((m) => m.owing !== "0.00") : board,
    totals: periods.map((period) => {
      const a = asked.get(period) ?? 0n;
      const p = paid.get(period) ?? 0n;
      return {
        period,
        asked: naira(a),
        collected: collectedBy.get(period) ?? "0.00",
        rate: a === 0n ? null : Number((p * 10_000n) / a) / 10_000,
      };
    }),
  };
}
