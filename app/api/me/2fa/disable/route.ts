import { writeAudit } from "@/lib/audit/write";
import { confirmOwnPassword } from "@/lib/auth/confirm-password";
import { withStaff } from "@/lib/auth/guard";
import { ANY_STAFF } from "@/lib/auth/roles";
import { clearFailures } from "@/lib/auth/throttle";
import { checkSecondStep, removeTwoStep, TwoStepUnreadable } from "@/lib/auth/two-step";
import { getConfig } from "@/lib/config";
import { conflict, invalidField } from "@/lib/http/api-error";
import { parseJsonBody } from "@/lib/http/body";
import { ok } from "@/lib/http/envelope";
import { otherMethods } from "@/lib/http/other-methods";
import { getSettings } from "@/lib/settings/repo";
import { twoStepDisableSchema } from "@/lib/staff/schemas";

export const dynamic = "force-dynamic";

/** Turns the person's own two-step sign-in off: their password and a current code (or a recovery code), throttled like sign-in. */
export const POST = withStaff(ANY_STAFF, async (request, { db, staff, ip }) => {
  const body = await parseJsonBody(request, twoStepDisableSchema);
  if ((await getSettings(db)).require2fa) throw conflict("Your team requires two-step sign-in, so it cannot be turned off. Ask an admin.");
  const row = await confirmOwnPassword(db, staff, body.password, ip, "password");
  if (row.totpSecret === null) throw conflict("Two-step sign-in is not on.");
  const checked = await checkSecondStep(db, row, body.code, getConfig().authSecret).catch((error: unknown) => {
    if (error instanceof TwoStepUnreadable)
      throw conflict("Your two-step sign-in cannot be checked on this server (its secret key was changed). Ask an admin to reset it.");
    throw error;
  });
  if (!checked) {
    throw invalidField("That code does not match or was already used.", "code", "That code does not match or was already used");
  }
  await removeTwoStep(db, staff.id);
  await clearFailures(db, staff.email);
  await writeAudit(db, { action: "account.two_step_disabled", actor: staff, target: staff.email, ip });
  return ok({}, "Two-step sign-in is off.");
});

export const { GET, PUT, PATCH, DELETE } = otherMethods("POST");
