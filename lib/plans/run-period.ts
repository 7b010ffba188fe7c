import "server-only";

import { auditActorOf, auditIpOf, requirePerson, type Actor } from "@/lib/actors/actor";
import { authorize } from "@/lib/actors/permissions";
import { writeAudit } from "@/lib/audit/write";
import { wakeCampaignSender } from "@/lib/campaigns/actions";
import type { PlanRow } from "@/lib/db/schema";
import type { Db } from "@/lib/db/client";

import { checkRun, makePeriod, type RunCheck } from "./periods";
import { findPlan } from "./repo";

export type RunOutcome =
  | { kind: "not_found" }
  | { kind: "ended"; plan: PlanRow }
  | { kind: "refused"; plan: PlanRow; reason: Extract<RunCheck, { ok: false }>["reason"] }
  /** Made meanwhile (another person's run, or the clock's). */
  | { kind: "exists"; plan: PlanRow }
  | { kind: "made"; plan: PlanRow; campaignId: string };

/**
 * A person runs a plan's period now (docs/architecture.md "Plans" and "Actors"): the current one or a missed one, its
 * campaign sending under the actor's person; audited with the period and its campaign, and the sender woken.
 */
export async function runPlanPeriod(db: Db, actor: Actor, planId: string, period: string, now = new Date()): Promise<RunOutcome> {
  authorize(actor, "plans.write");
  const person = requirePerson(actor);
  const plan = await findPlan(db, planId);
  if (!plan) return { kind: "not_found" };
  if (plan.status === "ended") return { kind: "ended", plan };
  const check = await checkRun(db, plan, period, now);
  if (!check.ok) return { kind: "refused", plan, reason: check.reason };
  const outcome = await makePeriod(db, plan, period, person);
  if (outcome.kind === "exists") return { kind: "exists", plan };
  await writeAudit(db, {
    action: "plan.period_run",
    actor: auditActorOf(actor),
    target: plan.id,
    detail: { period, campaignId: outcome.campaignId },
    ip: auditIpOf(actor),
  });
  await wakeCampaignSender([outcome.campaignId]);
  return { kind: "made", plan, campaignId: outcome.campaignId };
}
