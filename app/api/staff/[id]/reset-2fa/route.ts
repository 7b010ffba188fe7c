import { writeAudit } from "@/lib/audit/write";
import { withStaff } from "@/lib/auth/guard";
import { ADMINS } from "@/lib/client/auth/roles";
import { endSessions } from "@/lib/auth/sessions";
import { removeTwoStep } from "@/lib/auth/two-step";
import { conflict, notFound } from "@/lib/http/api-error";
import { ok } from "@/lib/http/envelope";
import { otherMethods } from "@/lib/http/other-methods";
import { findStaffById, toStaffView } from "@/lib/auth/accounts";

export const dynamic = "force-dynamic";

/** An admin removes a person's second step (a lost phone): every session of theirs ends; they set it up again after their password. */
export const POST = withStaff<{ id: string }>(ADMINS, async (_request, { db, staff, params, ip }) => {
  const target = await findStaffById(db, params.id);
  if (!target) throw notFound("No staff account has that id.");
  if (!(await removeTwoStep(db, target.id))) throw conflict(`${target.email} does not have two-step sign-in on.`);
  const ended = await endSessions(db, target.id, "two_step_reset");
  await writeAudit(db, { action: "staff.two_step_reset", actor: staff, target: target.email, detail: { sessionsEnded: ended }, ip });
  const updated = await findStaffById(db, target.id);
  return ok(toStaffView(updated ?? target), `Two-step sign-in removed for ${target.email}; ${ended} session${ended === 1 ? "" : "s"} signed out.`);
});

export const { GET, PUT, PATCH, DELETE } = otherMethods("POST");
