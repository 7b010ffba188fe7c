import { requirePasswordAndCode, twoStepNotOn } from "@/app/api/me/confirm";
import { writeAudit } from "@/lib/audit/write";
import { withStaff } from "@/lib/auth/guard";
import { ANY_STAFF } from "@/lib/client/auth/roles";
import { clearFailures } from "@/lib/auth/throttle";
import { replaceRecoveryCodes } from "@/lib/auth/two-step";
import { getConfig } from "@/lib/config";
import { parseJsonBody } from "@/lib/http/body";
import { ok } from "@/lib/http/envelope";
import { otherMethods } from "@/lib/http/other-methods";
import { twoStepConfirmSchema } from "@/lib/client/staff/schemas";

export const dynamic = "force-dynamic";

/** Ten new recovery codes in place of the old ones, for the password and a current code; shown this once. */
export const POST = withStaff(ANY_STAFF, async (request, { db, staff, ip }) => {
  const body = await parseJsonBody(request, twoStepConfirmSchema);
  const checked = await requirePasswordAndCode(db, staff, body, ip);
  // Only for the secret the code was checked against: a reset (and a new set-up) meanwhile wins.
  const codes = await replaceRecoveryCodes(db, staff.id, checked.totpSecret, getConfig().authSecret);
  if (!codes) throw twoStepNotOn();
  await clearFailures(db, staff.email);
  await writeAudit(db, { action: "account.recovery_codes_renewed", actor: staff, target: staff.email, ip });
  return ok({ recoveryCodes: codes }, "New recovery codes. The old ones no longer work. Keep these somewhere safe: they are shown only once.", 200, {
    "Cache-Control": "no-store",
  });
});

export const { GET, PUT, PATCH, DELETE } = otherMethods("POST");
