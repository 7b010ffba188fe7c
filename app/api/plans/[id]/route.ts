import { writeAudit, type AuditAction } from "@/lib/audit/write";
import { withStaff } from "@/lib/auth/guard";
import { ANY_STAFF, SENDERS } from "@/lib/client/auth/roles";
import { planPatchSchema } from "@/lib/client/plans/schemas";
import { conflict, notFound } from "@/lib/http/api-error";
import { parseJsonBody } from "@/lib/http/body";
import { ok } from "@/lib/http/envelope";
import { otherMethods } from "@/lib/http/other-methods";
import { getPlanView } from "@/lib/plans/queries";
import { changeMembers, changePlanStatus, changeSchedule, findPlan } from "@/lib/plans/repo";

export const dynamic = "force-dynamic";

const NO_PLAN = "No such plan. It may have been made on another dashboard.";

export const GET = withStaff<{ id: string }>(ANY_STAFF, async (_request, { db, params }) => {
  const view = await getPlanView(db, params.id);
  if (!view) throw notFound(NO_PLAN);
  return ok(view, "OK", 200, { "Cache-Control": "no-store" });
});

const STATUS_AUDIT: Record<"pause" | "resume" | "end", { action: AuditAction; done: string; refused: string }> = {
  pause: { action: "plan.paused", done: "Plan paused: no period is made until you resume it.", refused: "Only an active plan can be paused" },
  resume: {
    action: "plan.resumed",
    done: "Plan resumed: the next period is asked at its time. Periods due while it was paused can be run by hand.",
    refused: "Only a paused plan can be resumed",
  },
  end: { action: "plan.ended", done: "Plan ended: it makes no more periods. Its board and campaigns stay.", refused: "An ended plan cannot be ended again" },
};

// Members take up to 1,000 changes at once: a larger body than the usual 16 KiB.
const MAX_PATCH_BYTES = 256 * 1024;

/** Pause, resume or end; add, remove or re-price members; change the schedule. Each from the next period on, audited. */
export const PATCH = withStaff<{ id: string }>(SENDERS, async (request, { db, params, staff, ip }) => {
  const patch = await parseJsonBody(request, planPatchSchema, MAX_PATCH_BYTES);
  const plan = await findPlan(db, params.id);
  if (!plan) throw notFound(NO_PLAN);
  let message: string;
  if ("status" in patch) {
    const words = STATUS_AUDIT[patch.status];
    const changed = await changePlanStatus(db, plan.id, patch.status);
    if (!changed) throw conflict(`${words.refused}; this one is ${plan.status}.`, { status: plan.status });
    await writeAudit(db, { action: words.action, actor: staff, target: plan.id, ip });
    message = words.done;
  } else if ("members" in patch) {
    if (plan.status === "ended") throw conflict("This plan has ended; its members can no longer change.", { status: plan.status });
    const result = await changeMembers(db, plan.id, patch.members);
    await writeAudit(db, {
      action: "plan.members_changed",
      actor: staff,
      target: plan.id,
      detail: { ...result, unknown: result.unknown.length, refused: result.refused.length },
      ip,
    });
    const notes = [
      result.unknown.length > 0 ? `not members: ${result.unknown.join(", ")}` : "",
      result.refused.length > 0 ? `not added: ${result.refused.map((r) => `${r.tag} (${r.error})`).join("; ")}` : "",
    ].filter(Boolean);
    message = `Members changed from the next period: ${result.added} added, ${result.removed} removed, ${result.changed} amounts changed.${notes.length > 0 ? ` ${notes.join("; ")}.` : ""}`;
  } else {
    const changed = await changeSchedule(db, plan.id, patch.schedule);
    if (!changed) throw conflict("This plan has ended; its schedule can no longer change.", { status: plan.status });
    await writeAudit(db, { action: "plan.schedule_changed", actor: staff, target: plan.id, detail: patch.schedule, ip });
    message = "Schedule changed from the next period on.";
  }
  return ok(await getPlanView(db, plan.id), message);
});

export const { POST, PUT, DELETE } = otherMethods("GET", "PATCH");
