import "server-only";

// The one writer of plans and plan_members (docs/architecture.md, "Plans"): a plan from its roster, its status
// (active → paused ⇄ active → ended, never back from ended), its members and its schedule. Periods: periods.ts.
import { and, eq, inArray, isNull, sql } from "drizzle-orm";

import type { ParsedRow } from "@/lib/campaigns/parse";
import { payerKey } from "@/lib/client/payers/tag";
import type { PlanFields, PlanPatch } from "@/lib/client/plans/schemas";
import type { Db } from "@/lib/db/client";
import { planMembers, plans, type PlanRow } from "@/lib/db/schema";
import { isUuid } from "@/lib/http/route-params";
import { listPausedPeriods } from "./periods";

const INSERT_CHUNK = 1_000;

/** A roster's repeated tag: one ask a person a period, so later rows of the same person are left out, saying which row. */
function memberValues(planId: string, rows: readonly ParsedRow[], taken: Map<string, number>) {
  return rows.map((r) => {
    const key = payerKey(r.valid?.tag ?? r.tag);
    const first = r.valid ? taken.get(key) : undefined;
    if (r.valid && first === undefined) taken.set(key, r.row);
    const error = r.error ?? (first !== undefined ? `This person is already a member (row ${first}): one ask a person a period.` : null);
    return {
      planId,
      row: r.row,
      tag: r.valid?.tag ?? r.tag,
      tagKey: key,
      amountText: r.amountText,
      amountNaira: error ? null : (r.valid?.amount ?? null),
      description: r.description,
      businessReference: r.valid?.businessReference ?? r.businessReference ?? null,
      error,
    };
  });
}

/** A plan and its roster in one transaction; invalid rows are kept as members marked with the reason. */
export async function createPlan(db: Db, fields: PlanFields, timeZone: string, rows: readonly ParsedRow[], createdBy: string): Promise<string> {
  return createPlanWith(db, fields, timeZone, rows, createdBy, async (_tx, id) => id);
}

/**
 * The plan and its roster, then `within` (its view and audit row, say) in the same transaction: what `within` answers,
 * or, if it throws, no plan at all (a plan is never left behind an answer that failed).
 */
export async function createPlanWith<T>(
  db: Db,
  fields: PlanFields,
  timeZone: string,
  rows: readonly ParsedRow[],
  createdBy: string,
  within: (tx: Db, id: string) => Promise<T>,
): Promise<T> {
  return db.transaction(async (tx) => {
    const [plan] = await tx
      .insert(plans)
      .values({
        name: fields.name,
        frequency: fields.frequency,
        day: fields.day,
        sendAt: fields.sendAt,
        timeZone: fields.timeZone ?? timeZone,
        startsOn: fields.startsOn,
        endsOn: fields.endsOn,
        descriptionTemplate: fields.descriptionTemplate,
        chaseAfterHours: fields.chaseAfterHours ?? null,
        chaseTimes: fields.chaseTimes ?? null,
        chaseInclude: fields.chaseInclude?.length ? fields.chaseInclude : null,
        createdBy,
      })
      .returning({ id: plans.id });
    if (!plan) throw new Error("plan insert returned nothing");
    const values = memberValues(plan.id, rows, new Map());
    for (let i = 0; i < values.length; i += INSERT_CHUNK) await tx.insert(planMembers).values(values.slice(i, i + INSERT_CHUNK));
    return within(tx, plan.id);
  });
}

export async function findPlan(db: Db, id: string): Promise<PlanRow | null> {
  if (!isUuid(id)) return null;
  const [row] = await db.select().from(plans).where(eq(plans.id, id));
  return row ?? null;
}

type StatusChange = Extract<PlanPatch, { status: unknown }>["status"];

const STATUS_MOVES: Record<StatusChange, { from: PlanRow["status"][]; to: PlanRow["status"] }> = {
  pause: { from: ["active"], to: "paused" },
  resume: { from: ["paused"], to: "active" },
  end: { from: ["active", "paused"], to: "ended" },
};

/**
 * Pause, resume or end; null when the plan's status does not allow it. Resuming starts the clock afresh: periods due
 * while paused are listed as missed, not made by themselves (a person may run one).
 */
export async function changePlanStatus(db: Db, id: string, change: StatusChange, now = new Date()): Promise<PlanRow | null> {
  const move = STATUS_MOVES[change];
  return db.transaction(async (tx) => {
    const [before] = await tx.select().from(plans).where(eq(plans.id, id));
    const [row] = await tx
      .update(plans)
      .set({ status: move.to, updatedAt: now, ...(change === "resume" ? { activeSince: now, checkedUntil: now } : {}) })
      .where(and(eq(plans.id, id), inArray(plans.status, move.from)))
      .returning();
    if (row && before && change === "resume") await listPausedPeriods(tx, before, now);
    return row ?? null;
  });
}

export interface MemberChangeResult {
  added: number;
  removed: number;
  changed: number;
  /** Tags of `remove` and `change` that are not members; `add` rows refused with the reason. */
  unknown: string[];
  refused: { tag: string; error: string }[];
}

/**
 * Adds, removes and re-prices members; each takes effect from the next period made (periods already made keep
 * their campaign). A removed member stays, marked, so their past periods keep their history on the board.
 */
export async function changeMembers(db: Db, id: string, change: Extract<PlanPatch, { members: unknown }>["members"]): Promise<MemberChangeResult> {
  return db.transaction(async (tx) => {
    // One change to a roster at a time: the next row number and the live-tag rule are read and written under it.
    await tx.execute(sql`select id from plans where id = ${id}::uuid for update`);
    const now = new Date();
    const result: MemberChangeResult = { added: 0, removed: 0, changed: 0, unknown: [], refused: [] };
    for (const tag of change.remove) {
      const gone = await tx
        .update(planMembers)
        .set({ removedAt: now, updatedAt: now })
        .where(and(eq(planMembers.planId, id), eq(planMembers.tagKey, payerKey(tag)), isNull(planMembers.removedAt)))
        .returning({ id: planMembers.id });
      if (gone.length === 0) result.unknown.push(tag);
      result.removed += gone.length;
    }
    for (const c of change.change) {
      const changed = await tx
        .update(planMembers)
        .set({ amountNaira: c.amount, amountText: c.amount, updatedAt: now })
        .where(and(eq(planMembers.planId, id), eq(planMembers.tagKey, payerKey(c.tag)), isNull(planMembers.removedAt), isNull(planMembers.error)))
        .returning({ id: planMembers.id });
      if (changed.length === 0) result.unknown.push(c.tag);
      result.changed += changed.length;
    }
    if (change.add.length > 0) {
      const live = await tx
        .select({ tagKey: planMembers.tagKey, row: planMembers.row })
        .from(planMembers)
        .where(and(eq(planMembers.planId, id), isNull(planMembers.removedAt), isNull(planMembers.error)));
      const [last] = await tx
        .select({ row: sql<number>`coalesce(max(${planMembers.row}), 0)::int` })
        .from(planMembers)
        .where(eq(planMembers.planId, id));
      const taken = new Map(live.map((m) => [m.tagKey, m.row]));
      const rows: ParsedRow[] = change.add.map((m, i) => ({
        row: (last?.row ?? 0) + i + 1,
        tag: m.tag,
        amountText: m.amount,
        description: m.description,
        valid: { tag: m.tag, amount: m.amount, description: m.description },
        error: null,
      }));
      const values = memberValues(id, rows, taken);
      for (const v of values) if (v.error) result.refused.push({ tag: v.tag, error: v.error });
      const accepted = values.filter((v) => !v.error);
      if (accepted.length > 0) await tx.insert(planMembers).values(accepted);
      result.added = accepted.length;
    }
    await tx.update(plans).set({ updatedAt: now }).where(eq(plans.id, id));
    return result;
  });
}

/** A new schedule from the next period on; the clock starts afresh from now, so no past period is made by it. */
export async function changeSchedule(db: Db, id: string, schedule: Extract<PlanPatch, { schedule: unknown }>["schedule"]): Promise<PlanRow | null> {
  const now = new Date();
  const [row] = await db
    .update(plans)
    .set({ ...schedule, activeSince: now, checkedUntil: now, updatedAt: now })
    .where(and(eq(plans.id, id), inArray(plans.status, ["active", "paused"])))
    .returning();
  return row ?? null;
}
