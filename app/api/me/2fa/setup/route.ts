import { requireOwnPassword } from "@/app/api/me/confirm";
import { writeAudit } from "@/lib/audit/write";
import { withStaff } from "@/lib/auth/guard";
import { ANY_STAFF } from "@/lib/client/auth/roles";
import { beginTwoStepSetup } from "@/lib/auth/two-step";
import { getConfig } from "@/lib/config";
import { conflict } from "@/lib/http/api-error";
import { parseJsonBody } from "@/lib/http/body";
import { ok } from "@/lib/http/envelope";
import { otherMethods } from "@/lib/http/other-methods";
import { clearFailures } from "@/lib/auth/throttle";
import { twoStepSetupSchema } from "@/lib/client/staff/schemas";

export const dynamic = "force-dynamic";

/** A new authenticator secret (and its QR code) waiting for the first code; the password first, under the sign-in throttle. */
export const POST = withStaff(
  ANY_STAFF,
  async (request, { db, staff, ip }) => {
    const { password } = await parseJsonBody(request, twoStepSetupSchema);
    await requireOwnPassword(db, staff, password, ip, "password");
    await clearFailures(db, staff.email);
    const setup = await beginTwoStepSetup(db, staff, getConfig().authSecret);
    if (!setup) throw conflict("Two-step sign-in is already on. Turn it off first to set up another app.");
    await writeAudit(db, { action: "account.two_step_setup_started", actor: staff, target: staff.email, ip });
    return ok(setup, "Scan the QR code with your authenticator app, then enter the code it shows.", 200, { "Cache-Control": "no-store" });
  },
  { duringEnrolment: true },
);

export const { GET, PUT, PATCH, DELETE } = otherMethods("POST");
