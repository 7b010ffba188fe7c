import { writeAudit } from "@/lib/audit/write";
import { withStaff } from "@/lib/auth/guard";
import { ANY_STAFF } from "@/lib/client/auth/roles";
import { endSessions } from "@/lib/auth/sessions";
import { ok } from "@/lib/http/envelope";
import { otherMethods } from "@/lib/http/other-methods";

export const dynamic = "force-dynamic";

/** "Sign out everywhere else": every session of the person but this one ends. */
export const POST = withStaff(
  ANY_STAFF,
  async (_request, { db, staff, ip }) => {
    const ended = await endSessions(db, staff.id, "ended_by_owner", staff.sessionId);
    await writeAudit(db, { action: "account.other_sessions_ended", actor: staff, target: staff.email, detail: { ended }, ip });
    return ok({ ended }, ended === 0 ? "No other sessions were open." : `${ended} other session${ended === 1 ? " was" : "s were"} signed out.`);
  },
  { duringEnrolment: true },
);

export const { GET, PUT, PATCH, DELETE } = otherMethods("POST");
