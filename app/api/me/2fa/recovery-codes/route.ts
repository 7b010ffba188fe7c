import { checkRefusal, twoStepNotOn } from "@/app/api/me/confirm";
import { withStaff } from "@/lib/auth/guard";
import { renewOwnRecoveryCodes } from "@/lib/auth/own-account";
import { parseJsonBody } from "@/lib/http/body";
import { ok } from "@/lib/http/envelope";
import { otherMethods } from "@/lib/http/other-methods";
import { twoStepConfirmSchema } from "@/lib/client/staff/schemas";

export const dynamic = "force-dynamic";

/** Ten new recovery codes in place of the old ones, for the password and a current code; shown this once. */
export const POST = withStaff("account.own", async (request, { db, actor }) => {
  const outcome = await renewOwnRecoveryCodes(db, actor, await parseJsonBody(request, twoStepConfirmSchema));
  if (outcome.kind === "refused") throw checkRefusal(outcome, "password");
  if (outcome.kind === "not_on") throw twoStepNotOn();
  return ok(
    { recoveryCodes: outcome.recoveryCodes },
    "New recovery codes. The old ones no longer work. Keep these somewhere safe: they are shown only once.",
    200,
    {
      "Cache-Control": "no-store",
    },
  );
});

export const { GET, PUT, PATCH, DELETE } = otherMethods("POST");
