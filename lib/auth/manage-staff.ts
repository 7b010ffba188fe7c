import "server-only";

import { auditActorOf, auditIpOf, type Actor } from "@/lib/actors/actor";
import { authorize } from "@/lib/actors/permissions";
import { writeAudit } from "@/lib/audit/write";
import { pauseCampaignsWithoutSender } from "@/lib/campaigns/sender";
import { roleMay } from "@/lib/client/auth/permissions";
import type { Role } from "@/lib/client/auth/roles";
import type { Db } from "@/lib/db/client";
import type { StaffRow } from "@/lib/db/schema";

import { createStaff, findStaffById, updateStaffKeepingAnAdmin } from "./accounts";
import { endSessions } from "./sessions";
import { removeTwoStep } from "./two-step";

// An admin's side of staff accounts (docs/architecture.md "Staff accounts" and "Actors"): adding a person, changing
// their role or disabling them, removing their second step. Each authorizes `staff.manage`, writes its audit rows and
// answers a typed outcome; app/api/staff says it over HTTP.

export type StaffCreateOutcome = { kind: "email_taken" } | { kind: "created"; staff: StaffRow };

/** A new account with the password the admin chose: the person picks their own at first sign-in. */
export async function addStaffAccount(db: Db, actor: Actor, input: { email: string; name: string; role: Role; password: string }): Promise<StaffCreateOutcome> {
  authorize(actor, "staff.manage");
  const row = await createStaff(db, { ...input, mustChangePassword: true });
  if (!row) return { kind: "email_taken" };
  await writeAudit(db, { action: "staff.created", actor: auditActorOf(actor), target: row.email, detail: { role: row.role }, ip: auditIpOf(actor) });
  return { kind: "created", staff: row };
}

export type StaffChangeOutcome = { kind: "not_found" } | { kind: "own_account" } | { kind: "last_admin" } | { kind: "changed"; staff: StaffRow };

/**
 * A new role, or disabled or enabled again. An admin cannot take their own admin away, nor the team's last; a changed
 * role or a disable signs the person out everywhere, and their sending campaigns pause when they can no longer send.
 */
export async function changeStaffAccount(db: Db, actor: Actor, id: string, patch: { role?: Role; disabled?: boolean }): Promise<StaffChangeOutcome> {
  authorize(actor, "staff.manage");
  const target = await findStaffById(db, id);
  if (!target) return { kind: "not_found" };
  const { role, disabled } = patch;
  const losesAdmin = (role !== undefined && !roleMay(role, "staff.manage")) || disabled === true;
  if (actor.kind === "staff" && target.id === actor.id && losesAdmin) return { kind: "own_account" };
  const updated = await updateStaffKeepingAnAdmin(db, target.id, patch);
  if (updated === "last_admin") return { kind: "last_admin" };
  if (!updated) return { kind: "not_found" };
  const by = { actor: auditActorOf(actor), ip: auditIpOf(actor) };
  // A changed role or a disable signs the person out everywhere: they sign in again under the new terms.
  if (role !== undefined && role !== target.role) {
    const ended = await endSessions(db, target.id, "role_changed");
    await writeAudit(db, { action: "staff.role_changed", ...by, target: target.email, detail: { from: target.role, to: role, sessionsEnded: ended } });
  }
  if (disabled !== undefined && disabled !== target.disabled) {
    const ended = disabled ? await endSessions(db, target.id, "disabled") : 0;
    await writeAudit(db, { action: disabled ? "staff.disabled" : "staff.enabled", ...by, target: target.email, detail: { sessionsEnded: ended } });
  }
  // No longer able to send: their sending campaigns pause now, not at the send job's next row.
  if (updated.disabled || !roleMay(updated.role, "campaigns.write")) await pauseCampaignsWithoutSender(db, by);
  return { kind: "changed", staff: updated };
}

export type TwoStepResetOutcome = { kind: "not_found" } | { kind: "not_on"; email: string } | { kind: "reset"; staff: StaffRow; sessionsEnded: number };

/** An admin removes a person's second step (a lost phone): every session of theirs ends; they set it up again after their password. */
export async function resetStaffTwoStep(db: Db, actor: Actor, id: string): Promise<TwoStepResetOutcome> {
  authorize(actor, "staff.manage");
  const target = await findStaffById(db, id);
  if (!target) return { kind: "not_found" };
  if (!(await removeTwoStep(db, target.id))) return { kind: "not_on", email: target.email };
  const ended = await endSessions(db, target.id, "two_step_reset");
  await writeAudit(db, {
    action: "staff.two_step_reset",
    actor: auditActorOf(actor),
    target: target.email,
    detail: { sessionsEnded: ended },
    ip: auditIpOf(actor),
  });
  return { kind: "reset", staff: (await findStaffById(db, target.id)) ?? target, sessionsEnded: ended };
}
