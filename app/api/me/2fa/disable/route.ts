import { requirePasswordAndCode } from "@/app/api/me/confirm";
import { writeAudit } from "@/lib/audit/write";
import { withStaff } from "@/lib/auth/guard";
import { ANY_STAFF } from "@/lib/client/auth/roles";
import { clearFailures } from "@/lib/auth/throttle";
import { removeTwoStep } from "@/lib/auth/two-step";
import { conflict } from "@/lib/http/api-error";
import { parseJsonBody } from "@/lib/http/body";
import { ok } from "@/lib/http/envelope";
import { otherMethods } from "@/lib/http/other-methods";
import { getSettings } from "@/lib/settings/repo";
import { twoStepConfirmSchema } from "@/lib/client/staff/schemas";

export const dynamic = "force-dynamic";

/** Turns the person's own two-step sign-in off: their password and a current code (or a recovery code), throttled like sign-in. */
export const POST = withStaff(ANY_STAFF, async (request, { db, staff, ip }) => {
  const body = await parseJsonBody(request, twoStepConfirmSchema);
  if ((await getSettings(db)).require2fa) throw conflict("Your team requires two-step sign-in, so it cannot be turned off. Ask an admin.");
  await requirePasswordAndCode(db, staff, body, ip);
  await removeTwoStep(db, staff.id);
  await clearFailures(db, staff.email);
  await writeAudit(db, { action: "account.two_step_disabled", actor: staff, target: staff.email, ip });
  return ok({}, "Two-step sign-in is off.");
});

export const { GET, PUT, PATCH, DELETE } = otherMethods("POST");
