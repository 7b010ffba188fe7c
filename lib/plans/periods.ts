import "server-only";

// A plan's periods (docs/architecture.md, "Plans"): the one writer of plan_periods. A period is made once, whatever
// restarts, retries or instances: its row (unique plan + period) is claimed in the transaction that makes its
// campaign already sending, so a crash leaves both or neither, and the campaign sender asks each member once.
import { and, eq, isNull, sql } from "drizzle-orm";

import { askAgain, coolingDown } from "@/lib/campaigns/ask-again";
import type { ParsedRow } from "@/lib/campaigns/parse";
import { createCampaign, type LeftOutRow } from "@/lib/campaigns/repo";
import type { AskAgainState } from "@/lib/client/campaigns/constants";
import { describe, dueAt, inPlan, periodOf, periodsDue, periodStart, type Schedule } from "@/lib/client/plans/schedule";
import { payerKey } from "@/lib/client/payers/tag";
import { formatTime } from "@/lib/client/time/format";
import { dayOf } from "@/lib/client/time/zone";
import { getConfig } from "@/lib/config";
import { getSettings } from "@/lib/settings/repo";
import { queryRows, type Db } from "@/lib/db/client";
import { planMembers, planPeriods, plans, type PlanRow } from "@/lib/db/schema";
import { appendEvent } from "@/lib/events/append";

/** A period due longer ago than this when a server is back is listed as missed, never sent by itself (docs/architecture.md "Plans"). */
export const CATCH_UP_HOURS = 72;
const HOUR = 3_600_000;

export function scheduleOf(plan: PlanRow): Schedule {
  return {
    frequency: plan.frequency,
    day: plan.day,
    sendAt: plan.sendAt,
    startsOn: plan.startsOn,
    endsOn: plan.endsOn,
    timeZone: plan.timeZone,
  };
}

/** The period was made before (by another instance, a retry, a person). */
class PeriodTaken extends Error {}

export type MakeOutcome = { kind: "made"; campaignId: string } | { kind: "exists" };

/** The period's campaign rows from the live roster: its members now, each described for the period. */
async function periodRows(db: Db, plan: PlanRow, period: string): Promise<ParsedRow[]> {
  const members = await db
    .select()
    .from(planMembers)
    .where(and(eq(planMembers.planId, plan.id), isNull(planMembers.removedAt)))
    .orderBy(planMembers.row);
  return members.map((m) => {
    const description = describe(plan.descriptionTemplate, m.description, period);
    return {
      row: m.row,
      tag: m.tag,
      amountText: m.amountText,
      description,
      businessReference: m.businessReference,
      valid: m.error === null && m.amountNaira !== null ? { tag: m.tag, amount: m.amountNaira, description, businessReference: m.businessReference } : null,
      error: m.error,
    };
  });
}

/**
 * Makes `period`'s campaign, sending at once under the plan's creator (a person's run: under them), its period row
 * claimed in the same transaction. A period listed as missed may be made this way; one already made is left alone.
 */
export async function makePeriod(db: Db, plan: PlanRow, period: string, by: { id: string } | null = null): Promise<MakeOutcome> {
  const sender = by?.id ?? plan.createdBy;
  if (!sender) throw new Error(`plan ${plan.id} has no sender of record`);
  const at = dueAt(scheduleOf(plan), period);
  const { rows, leftOut } = by ? await withoutCoolingDown(db, await periodRows(db, plan, period)) : { rows: await periodRows(db, plan, period), leftOut: [] };
  try {
    const campaignId = await createCampaign(db, `${plan.name} — ${period}`.slice(0, 100), rows, sender, {
      leftOut,
      plan: { planId: plan.id, period },
      start: true,
      inTransaction: async (tx, id) => {
        const claimed = await tx
          .insert(planPeriods)
          .values({ planId: plan.id, period, dueAt: at, status: "made", campaignId: id, madeBy: by?.id ?? null, madeAt: new Date() })
          .onConflictDoUpdate({
            target: [planPeriods.planId, planPeriods.period],
            set: { status: "made", campaignId: id, madeBy: by?.id ?? null, madeAt: new Date() },
            setWhere: sql`${planPeriods.status} = 'missed'`,
          })
          .returning({ id: planPeriods.id });
        if (claimed.length === 0) throw new PeriodTaken();
        await appendEvent(tx, "plan.period_made", {
          planId: plan.id,
          planName: plan.name,
          period,
          dueAt: at.toISOString(),
          campaignId: id,
          madeBy: by?.id ?? null,
        });
      },
    });
    return { kind: "made", campaignId };
  } catch (error) {
    if (error instanceof PeriodTaken) return { kind: "exists" };
    throw error;
  }
}

/**
 * A person's run honours the cool-down as an ask-again round does (docs/decisions.md): a member who declined within
 * `declineCooldownHours` is left out, with when it ends; the clock's own periods ask every member, as dues are.
 */
async function withoutCoolingDown(db: Db, all: ParsedRow[]): Promise<{ rows: ParsedRow[]; leftOut: LeftOutRow[] }> {
  const keys = [...new Set(all.flatMap((r) => (r.valid ? [payerKey(r.valid.tag)] : [])))];
  const cooling = await coolingDown(db, keys, (await getSettings(db)).declineCooldownHours);
  const timeZone = getConfig().timeZone;
  const rows: ParsedRow[] = [];
  const leftOut: LeftOutRow[] = [];
  for (const r of all) {
    const until = r.valid ? cooling.get(payerKey(r.valid.tag)) : undefined;
    if (!r.valid || !until) rows.push(r);
    else
      leftOut.push({
        row: r.row,
        tag: r.valid.tag,
        amount: r.valid.amount,
        description: r.valid.description,
        businessReference: r.valid.businessReference ?? null,
        reason: "cooling_down",
        message: `Left out: declined recently (cooling down until ${formatTime(until.toISOString(), timeZone)})`,
      });
  }
  return { rows, leftOut };
}

/** `plan.period_missed`, with why: more than 72 hours late (no server ran), or due while the plan was paused. */
async function appendMissed(tx: Db, plan: PlanRow, period: string, due: Date, reason: "late" | "paused"): Promise<void> {
  await appendEvent(tx, "plan.period_missed", { planId: plan.id, planName: plan.name, period, dueAt: due.toISOString(), reason });
}

/**
 * On resume: the periods that fell due while the plan was paused (since the clock last looked) are listed as missed,
 * never sent by themselves, so a person sees them and may run one.
 */
export async function listPausedPeriods(db: Db, before: PlanRow, now: Date): Promise<string[]> {
  const from = before.checkedUntil > before.activeSince ? before.checkedUntil : before.activeSince;
  const due = periodsDue(scheduleOf(before), from, now);
  if (due.length === 0) return [];
  return db.transaction(async (tx) => {
    const listed = await tx
      .insert(planPeriods)
      .values(due.map((d) => ({ planId: before.id, period: d.period, dueAt: d.dueAt, status: "missed" as const })))
      .onConflictDoNothing()
      .returning({ period: planPeriods.period, dueAt: planPeriods.dueAt });
    for (const l of listed) await appendMissed(tx, before, l.period, l.dueAt, "paused");
    return listed.map((l) => l.period);
  });
}

export type RunCheck = { ok: true } | { ok: false; reason: "not_a_period" | "not_in_plan" | "future" | "made" | "past" };

/** Whether a person may run `period` now: a period of this plan, the current one or one due already, and not made. */
export async function checkRun(db: Db, plan: PlanRow, period: string, now: Date): Promise<RunCheck> {
  const schedule = scheduleOf(plan);
  if (!periodStart(plan.frequency, period)) return { ok: false, reason: "not_a_period" };
  if (!inPlan(schedule, period)) return { ok: false, reason: "not_in_plan" };
  // The current period may be asked before its day (docs/architecture.md "Plans": "the current one or a missed one"); a later one not.
  if (dueAt(schedule, period) > now && period !== periodOf(plan.frequency, dayOf(now, plan.timeZone))) return { ok: false, reason: "future" };
  const [row] = await db
    .select({ status: planPeriods.status })
    .from(planPeriods)
    .where(and(eq(planPeriods.planId, plan.id), eq(planPeriods.period, period)));
  if (row?.status === "made") return { ok: false, reason: "made" };
  // A past period runs only when listed missed: one the clock made (or will) is not asked twice, and a plan made today
  // with an early start does not ask its back periods (docs/decisions.md).
  if (period !== periodOf(plan.frequency, dayOf(now, plan.timeZone)) && row?.status !== "missed") return { ok: false, reason: "past" };
  return { ok: true };
}

export interface ClockPass {
  made: { planId: string; period: string; campaignId: string }[];
  missed: { planId: string; period: string }[];
  chased: { planId: string; period: string; campaignId: string }[];
}

/**
 * One tick of the plans clock (plans.job.ts): for every active plan, the periods due since it last looked are made,
 * or, when more than CATCH_UP_HOURS late, listed as missed; then the chases that are due. A plan that fails is
 * looked at again next tick (its `checked_until` stays), the others go on.
 */
export async function runPlanClock(db: Db, now: Date, log: (line: string) => void = () => {}): Promise<ClockPass> {
  const pass: ClockPass = { made: [], missed: [], chased: [] };
  const active = await db.select().from(plans).where(eq(plans.status, "active"));
  for (const plan of active) {
    try {
      const from = plan.checkedUntil > plan.activeSince ? plan.checkedUntil : plan.activeSince;
      for (const due of periodsDue(scheduleOf(plan), from, now)) {
        if (now.getTime() - due.dueAt.getTime() >= CATCH_UP_HOURS * HOUR) {
          const listed = await db.transaction(async (tx) => {
            const rows = await tx
              .insert(planPeriods)
              .values({ planId: plan.id, period: due.period, dueAt: due.dueAt, status: "missed" })
              .onConflictDoNothing()
              .returning({ id: planPeriods.id });
            if (rows.length > 0) await appendMissed(tx, plan, due.period, due.dueAt, "late");
            return rows;
          });
          if (listed.length > 0) pass.missed.push({ planId: plan.id, period: due.period });
          continue;
        }
        const outcome = await makePeriod(db, plan, due.period);
        if (outcome.kind === "made") pass.made.push({ planId: plan.id, period: due.period, campaignId: outcome.campaignId });
      }
      // Forward only: a slower instance's older `now` never moves the mark back.
      await db
        .update(plans)
        .set({ checkedUntil: sql`greatest(${plans.checkedUntil}, ${now.toISOString()}::timestamptz)` })
        .where(eq(plans.id, plan.id));
    } catch (error) {
      log(`[plans] plan ${plan.id}: periods not made this tick (${error instanceof Error ? error.name : "error"})`);
    }
  }
  pass.chased = await runChases(db, now, log);
  return pass;
}

interface ChaseDue {
  period_id: number;
  plan_id: string;
  period: string;
  rounds: number;
  times: number;
  after_hours: number;
  include: AskAgainState[];
  created_by: string | null;
  latest_id: string;
}

/**
 * Chasing a period (docs/architecture.md "Plans"): `after` hours after its latest round started, an ask-again round of that round's
 * rows in the chosen states, started at once, at most `times` rounds. The round count moves in the round's own
 * transaction (only from the count read), so two ticks cannot both make round N.
 */
async function runChases(db: Db, now: Date, log: (line: string) => void): Promise<ClockPass["chased"]> {
  const due = await queryRows<ChaseDue>(
    db,
    sql`select pp.id as period_id, p.id as plan_id, pp.period, pp.chase_rounds as rounds, p.chase_times as times,
          p.chase_after_hours as after_hours, p.chase_include as include, p.created_by, latest.id as latest_id
        from plan_periods pp
        join plans p on p.id = pp.plan_id
        join lateral (
          select c.id, c.started_at from campaigns c
          where c.id = pp.campaign_id or c.family_id = pp.campaign_id
          order by c.round desc, c.created_at desc limit 1
        ) latest on true
        where p.status = 'active' and pp.status = 'made' and p.chase_times is not null
          and pp.chase_rounds < p.chase_times
          and (pp.chase_next_at is null or pp.chase_next_at <= ${now.toISOString()}::timestamptz)
          and latest.started_at <= ${now.toISOString()}::timestamptz - make_interval(hours => p.chase_after_hours)`,
  );
  const chased: ClockPass["chased"] = [];
  for (const d of due) {
    if (!d.created_by) continue;
    const claim = async (tx: Db) => {
      const moved = await tx
        .update(planPeriods)
        .set({ chaseRounds: d.rounds + 1 })
        .where(and(eq(planPeriods.id, d.period_id), eq(planPeriods.chaseRounds, d.rounds)))
        .returning({ id: planPeriods.id });
      if (moved.length !== 1) throw new PeriodTaken();
    };
    try {
      const outcome = await askAgain(db, d.latest_id, { include: d.include, unansweredForHours: d.after_hours }, d.created_by, {
        start: true,
        inTransaction: (tx) => claim(tx),
      });
      if (outcome.kind === "made") chased.push({ planId: d.plan_id, period: d.period, campaignId: outcome.id });
      else if (outcome.kind === "nothing") {
        // Only people cooling down after a decline, or yet to answer: look again `after` hours on, no round spent.
        // Nobody who could ever be asked again: the period's chasing is over.
        const later = outcome.leftOut.some((r) => r.reason === "cooling_down" || r.reason === "pending");
        await db
          .update(planPeriods)
          .set(later ? { chaseNextAt: new Date(now.getTime() + d.after_hours * HOUR) } : { chaseRounds: d.times })
          .where(and(eq(planPeriods.id, d.period_id), eq(planPeriods.chaseRounds, d.rounds)));
      }
    } catch (error) {
      if (error instanceof PeriodTaken) continue;
      log(`[plans] chase of plan ${d.plan_id} ${d.period} not made this tick (${error instanceof Error ? error.name : "error"})`);
    }
  }
  return chased;
}
