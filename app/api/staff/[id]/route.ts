import { writeAudit } from "@/lib/audit/write";
import { withStaff } from "@/lib/auth/guard";
import { ADMINS, SENDERS } from "@/lib/client/auth/roles";
import { pauseCampaignsWithoutSender } from "@/lib/campaigns/sender";
import { endSessions } from "@/lib/auth/sessions";
import { parseJsonBody } from "@/lib/http/body";
import { conflict, notFound } from "@/lib/http/api-error";
import { ok } from "@/lib/http/envelope";
import { findStaffById, toStaffView, updateStaffKeepingAnAdmin } from "@/lib/auth/accounts";
import { staffPatchSchema } from "@/lib/client/staff/schemas";
import { otherMethods } from "@/lib/http/other-methods";

export const dynamic = "force-dynamic";

export const PATCH = withStaff<{ id: string }>(ADMINS, async (request, { db, staff, params, ip }) => {
  const target = await findStaffById(db, params.id);
  if (!target) throw notFound("No staff account has that id.");
  const body = await parseJsonBody(request, staffPatchSchema);
  const { role, disabled } = body;

  const losesAdmin = (role !== undefined && role !== "admin") || disabled === true;
  if (target.id === staff.id && losesAdmin) {
    throw conflict("You cannot disable or demote your own account; ask another admin.");
  }
  const updated = await updateStaffKeepingAnAdmin(db, target.id, body);
  if (updated === "last_admin") throw conflict("This is the last active admin; make someone else an admin first.");
  if (!updated) throw notFound("No staff account has that id.");
  // A changed role or a disable signs the person out everywhere: they sign in again under the new terms.
  if (role !== undefined && role !== target.role) {
    const ended = await endSessions(db, target.id, "role_changed");
    await writeAudit(db, {
      action: "staff.role_changed",
      actor: staff,
      target: target.email,
      detail: { from: target.role, to: role, sessionsEnded: ended },
      ip,
    });
  }
  if (disabled !== undefined && disabled !== target.disabled) {
    const ended = disabled ? await endSessions(db, target.id, "disabled") : 0;
    await writeAudit(db, { action: disabled ? "staff.disabled" : "staff.enabled", actor: staff, target: target.email, detail: { sessionsEnded: ended }, ip });
  }
  // No longer able to send: their sending campaigns pause now, not at the send job's next row.
  if (updated.disabled || !SENDERS.includes(updated.role)) await pauseCampaignsWithoutSender(db, { actor: staff, ip });
  return ok(toStaffView(updated), "Account updated");
});

export const { GET, POST, PUT, DELETE } = otherMethods("PATCH");
