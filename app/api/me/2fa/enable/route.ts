import { requireOwnPassword } from "@/app/api/me/confirm";
import { writeAudit } from "@/lib/audit/write";
import { withStaff } from "@/lib/auth/guard";
import { clearFailures } from "@/lib/auth/throttle";
import { ANY_STAFF } from "@/lib/client/auth/roles";
import { enableTwoStep, TwoStepUnreadable } from "@/lib/auth/two-step";
import { getConfig } from "@/lib/config";
import { conflict, invalidField } from "@/lib/http/api-error";
import { parseJsonBody } from "@/lib/http/body";
import { ok } from "@/lib/http/envelope";
import { otherMethods } from "@/lib/http/other-methods";
import { twoStepEnableSchema } from "@/lib/client/staff/schemas";

export const dynamic = "force-dynamic";

/** Turns two-step sign-in on with the password and the app's first code (a wrong code stays counted in the sign-in throttle); answers the recovery codes, shown this once. */
export const POST = withStaff(
  ANY_STAFF,
  async (request, { db, staff, ip }) => {
    const { password, code } = await parseJsonBody(request, twoStepEnableSchema);
    await requireOwnPassword(db, staff, password, ip, "password");
    const outcome = await enableTwoStep(db, staff.id, code, getConfig().authSecret).catch((error: unknown) => {
      if (error instanceof TwoStepUnreadable) throw conflict("This set-up was started under another secret key. Start the set-up again.");
      throw error;
    });
    if (!outcome.ok) {
      if (outcome.reason === "wrong_code") {
        throw invalidField(
          "That code does not match. Check the app's clock and enter the code it shows now.",
          "code",
          "That code does not match the one your app shows now",
        );
      }
      throw conflict(outcome.reason === "already_on" ? "Two-step sign-in is already on." : "Start the set-up first: there is no QR code waiting for a code.");
    }
    await clearFailures(db, staff.email);
    await writeAudit(db, { action: "account.two_step_enabled", actor: staff, target: staff.email, ip });
    return ok({ recoveryCodes: outcome.recoveryCodes }, "Two-step sign-in is on. Keep these recovery codes somewhere safe: they are shown only once.", 200, {
      "Cache-Control": "no-store",
    });
  },
  { duringEnrolment: true },
);

export const { GET, PUT, PATCH, DELETE } = otherMethods("POST");
