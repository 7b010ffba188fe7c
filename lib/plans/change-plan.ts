import "server-only";

import { auditActorOf, auditIpOf, type Actor } from "@/lib/actors/actor";
import { authorize } from "@/lib/actors/permissions";
import { writeAudit, type AuditAction } from "@/lib/audit/write";
import type { PlanPatch } from "@/lib/client/plans/schemas";
import type { Db } from "@/lib/db/client";

import { changeMembers, changePlanStatus, changeSchedule, findPlan } from "./repo";

export type PlanChangeOutcome =
  { kind: "not_found" } | { kind: "refused"; message: string; status: string } | { kind: "changed"; planId: string; message: string };

const STATUS_WORDS: Record<"pause" | "resume" | "end", { action: AuditAction; done: string; refused: string }> = {
  pause: { action: "plan.paused", done: "Plan paused: no period is made until you resume it.", refused: "Only an active plan can be paused" },
  resume: {
    action: "plan.resumed",
    done: "Plan resumed: the next period is asked at its time. Periods due while it was paused can be run by hand.",
    refused: "Only a paused plan can be resumed",
  },
  end: { action: "plan.ended", done: "Plan ended: it makes no more periods. Its board and campaigns stay.", refused: "An ended plan cannot be ended again" },
};

/**
 * A person pauses, resumes or ends a plan, changes its members or its schedule (each from the next period on): the
 * change and its audit row in one transaction, a refusal changing nothing (docs/architecture.md "Plans"). The actor
 * needs `plans.write` (docs/architecture.md "Actors").
 */
export async function changePlan(db: Db, actor: Actor, id: string, patch: PlanPatch, now = new Date()): Promise<PlanChangeOutcome> {
  authorize(actor, "plans.write");
  const who = auditActorOf(actor);
  const ip = auditIpOf(actor);
  return db.transaction(async (tx): Promise<PlanChangeOutcome> => {
    const plan = await findPlan(tx, id);
    if (!plan) return { kind: "not_found" };
    if ("status" in patch) {
      const words = STATUS_WORDS[patch.status];
      if (!(await changePlanStatus(tx, plan.id, patch.status, now)))
        return { kind: "refused", message: `${words.refused}; this one is ${plan.status}.`, status: plan.status };
      await writeAudit(tx, { action: words.action, actor: who, target: plan.id, ip });
      return { kind: "changed", planId: plan.id, message: words.done };
    }
    if ("members" in patch) {
      if (plan.status === "ended") return { kind: "refused", message: "This plan has ended; its members can no longer change.", status: plan.status };
      const result = await changeMembers(tx, plan.id, patch.members);
      await writeAudit(tx, {
        action: "plan.members_changed",
        actor: who,
        target: plan.id,
        detail: { ...result, unknown: result.unknown.length, refused: result.refused.length },
        ip,
      });
      const notes = [
        result.unknown.length > 0 ? `not members: ${result.unknown.join(", ")}` : "",
        result.refused.length > 0 ? `not added: ${result.refused.map((r) => `${r.tag} (${r.error})`).join("; ")}` : "",
      ].filter(Boolean);
      return {
        kind: "changed",
        planId: plan.id,
        message: `Members changed from the next period: ${result.added} added, ${result.removed} removed, ${result.changed} amounts changed.${notes.length > 0 ? ` ${notes.join("; ")}.` : ""}`,
      };
    }
    if (!(await changeSchedule(tx, plan.id, patch.schedule)))
      return { kind: "refused", message: "This plan has ended; its schedule can no longer change.", status: plan.status };
    await writeAudit(tx, { action: "plan.schedule_changed", actor: who, target: plan.id, detail: patch.schedule, ip });
    return { kind: "changed", planId: plan.id, message: "Schedule changed from the next period on." };
  });
}
