import { withStaff } from "@/lib/auth/guard";
import { recoveryCodesLeft } from "@/lib/auth/two-step";
import { notFound } from "@/lib/http/api-error";
import { ok } from "@/lib/http/envelope";
import { otherMethods } from "@/lib/http/other-methods";
import { findStaffById } from "@/lib/auth/accounts";

export const dynamic = "force-dynamic";

/** The signed-in person's own account: who they are, and their two-step sign-in. */
export const GET = withStaff(
  "account.own",
  async (_request, { db, staff }) => {
    const row = await findStaffById(db, staff.id);
    if (!row) throw notFound("Your account no longer exists.");
    return ok({
      id: row.id,
      email: row.email,
      name: row.name,
      role: row.role,
      sessionId: staff.sessionId,
      mustEnrol: staff.mustEnrol,
      twoStep: {
        enabled: row.totpSecret !== null,
        enabledAt: row.totpEnabledAt?.toISOString() ?? null,
        recoveryCodesLeft: row.totpSecret !== null ? await recoveryCodesLeft(db, row.id) : 0,
      },
    });
  },
  { duringEnrolment: true },
);

export const { POST, PUT, PATCH, DELETE } = otherMethods("GET");
