import { requireOwnPassword } from "@/app/api/me/confirm";
import { writeAudit } from "@/lib/audit/write";
import { withStaff } from "@/lib/auth/guard";
import { ANY_STAFF } from "@/lib/client/auth/roles";
import { endSessions } from "@/lib/auth/sessions";
import { clearFailures } from "@/lib/auth/throttle";
import { parseJsonBody } from "@/lib/http/body";
import { ok } from "@/lib/http/envelope";
import { otherMethods } from "@/lib/http/other-methods";
import { setPassword } from "@/lib/auth/accounts";
import { passwordChangeSchema } from "@/lib/client/staff/schemas";

export const dynamic = "force-dynamic";

/** Changes the person's own password; every other session of theirs ends (docs/architecture.md, "Staff accounts"). */
export const POST = withStaff(
  ANY_STAFF,
  async (request, { db, staff, ip }) => {
    const body = await parseJsonBody(request, passwordChangeSchema);
    await requireOwnPassword(db, staff, body.currentPassword, ip, "currentPassword");
    await setPassword(db, staff.id, body.newPassword);
    await clearFailures(db, staff.email);
    const ended = await endSessions(db, staff.id, "password_changed", staff.sessionId);
    await writeAudit(db, { action: "account.password_changed", actor: staff, target: staff.email, detail: { otherSessionsEnded: ended }, ip });
    return ok(
      { otherSessionsEnded: ended },
      ended > 0 ? `Password changed. ${ended} other session${ended === 1 ? " was" : "s were"} signed out.` : "Password changed.",
    );
  },
  { duringEnrolment: true },
);

export const { GET, PUT, PATCH, DELETE } = otherMethods("POST");
