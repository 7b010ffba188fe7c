import { checkRefusal } from "@/app/api/me/confirm";
import { withStaff } from "@/lib/auth/guard";
import { enableOwnTwoStep } from "@/lib/auth/own-account";
import { conflict, invalidField } from "@/lib/http/api-error";
import { parseJsonBody } from "@/lib/http/body";
import { ok } from "@/lib/http/envelope";
import { otherMethods } from "@/lib/http/other-methods";
import { twoStepEnableSchema } from "@/lib/client/staff/schemas";

export const dynamic = "force-dynamic";

/** Turns two-step sign-in on with the password and the app's first code (a wrong code stays counted in the sign-in throttle); answers the recovery codes, shown this once. */
export const POST = withStaff(
  "account.own",
  async (request, { db, actor }) => {
    const outcome = await enableOwnTwoStep(db, actor, await parseJsonBody(request, twoStepEnableSchema));
    switch (outcome.kind) {
      case "refused":
        throw checkRefusal(outcome, "password");
      case "unreadable":
        throw conflict("This set-up was started under another secret key. Start the set-up again.");
      case "wrong_code":
        throw invalidField(
          "That code does not match. Check the app's clock and enter the code it shows now.",
          "code",
          "That code does not match the one your app shows now",
        );
      case "already_on":
        throw conflict("Two-step sign-in is already on.");
      case "no_setup":
        throw conflict("Start the set-up first: there is no QR code waiting for a code.");
    }
    return ok({ recoveryCodes: outcome.recoveryCodes }, "Two-step sign-in is on. Keep these recovery codes somewhere safe: they are shown only once.", 200, {
      "Cache-Control": "no-store",
    });
  },
  { duringEnrolment: true },
);

export const { GET, PUT, PATCH, DELETE } = otherMethods("POST");
