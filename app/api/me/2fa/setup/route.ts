import { checkRefusal } from "@/app/api/me/confirm";
import { withStaff } from "@/lib/auth/guard";
import { startOwnTwoStepSetup } from "@/lib/auth/own-account";
import { conflict } from "@/lib/http/api-error";
import { parseJsonBody } from "@/lib/http/body";
import { ok } from "@/lib/http/envelope";
import { otherMethods } from "@/lib/http/other-methods";
import { twoStepSetupSchema } from "@/lib/client/staff/schemas";

export const dynamic = "force-dynamic";

/** A new authenticator secret (and its QR code) waiting for the first code; the password first, under the sign-in throttle. */
export const POST = withStaff(
  "account.own",
  async (request, { db, actor }) => {
    const outcome = await startOwnTwoStepSetup(db, actor, await parseJsonBody(request, twoStepSetupSchema));
    if (outcome.kind === "refused") throw checkRefusal(outcome, "password");
    if (outcome.kind === "already_on") throw conflict("Two-step sign-in is already on. Turn it off first to set up another app.");
    return ok(outcome.setup, "Scan the QR code with your authenticator app, then enter the code it shows.", 200, { "Cache-Control": "no-store" });
  },
  { duringEnrolment: true },
);

export const { GET, PUT, PATCH, DELETE } = otherMethods("POST");
