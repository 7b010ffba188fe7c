import { withStaff } from "@/lib/auth/guard";
import { ANY_STAFF } from "@/lib/auth/roles";
import { beginTwoStepSetup } from "@/lib/auth/two-step";
import { getConfig } from "@/lib/config";
import { conflict } from "@/lib/http/api-error";
import { ok } from "@/lib/http/envelope";
import { otherMethods } from "@/lib/http/other-methods";

export const dynamic = "force-dynamic";

/** A new authenticator secret (and its QR code) waiting for the first code; nothing changes until /enable. */
export const POST = withStaff(
  ANY_STAFF,
  async (_request, { db, staff }) => {
    const setup = await beginTwoStepSetup(db, staff, getConfig().authSecret);
    if (!setup) throw conflict("Two-step sign-in is already on. Turn it off first to set up another app.");
    return ok(setup, "Scan the QR code with your authenticator app, then enter the code it shows.", 200, { "Cache-Control": "no-store" });
  },
  { duringEnrolment: true },
);

export const { GET, PUT, PATCH, DELETE } = otherMethods("POST");
