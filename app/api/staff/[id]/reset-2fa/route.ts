import { withStaff } from "@/lib/auth/guard";
import { conflict, notFound } from "@/lib/http/api-error";
import { ok } from "@/lib/http/envelope";
import { otherMethods } from "@/lib/http/other-methods";
import { toStaffView } from "@/lib/auth/accounts";
import { resetStaffTwoStep } from "@/lib/auth/manage-staff";

export const dynamic = "force-dynamic";

/** An admin removes a person's second step (a lost phone): every session of theirs ends; they set it up again after their password. */
export const POST = withStaff<{ id: string }>("staff.manage", async (_request, { db, actor, params }) => {
  const outcome = await resetStaffTwoStep(db, actor, params.id);
  if (outcome.kind === "not_found") throw notFound("No staff account has that id.");
  if (outcome.kind === "not_on") throw conflict(`${outcome.email} does not have two-step sign-in on.`);
  const { staff, sessionsEnded: ended } = outcome;
  return ok(toStaffView(staff), `Two-step sign-in removed for ${staff.email}; ${ended} session${ended === 1 ? "" : "s"} signed out.`);
});

export const { GET, PUT, PATCH, DELETE } = otherMethods("POST");
