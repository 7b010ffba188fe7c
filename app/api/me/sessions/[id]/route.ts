import { writeAudit } from "@/lib/audit/write";
import { withStaff } from "@/lib/auth/guard";
import { ANY_STAFF } from "@/lib/client/auth/roles";
import { endSession } from "@/lib/auth/sessions";
import { notFound } from "@/lib/http/api-error";
import { ok } from "@/lib/http/envelope";
import { otherMethods } from "@/lib/http/other-methods";

export const dynamic = "force-dynamic";

/** Signs one of the person's own sessions out; its next request is answered 401. */
export const DELETE = withStaff<{ id: string }>(
  ANY_STAFF,
  async (_request, { db, staff, params, ip }) => {
    // Another person's session, or one already ended, is "not found": nobody learns other people's session ids.
    if (!(await endSession(db, staff.id, params.id, "ended_by_owner"))) throw notFound("You have no open session with that id.");
    await writeAudit(db, {
      action: "account.session_ended",
      actor: staff,
      target: staff.email,
      detail: { session: params.id, current: params.id === staff.sessionId },
      ip,
    });
    return ok({ id: params.id, current: params.id === staff.sessionId }, params.id === staff.sessionId ? "Signed out." : "That session is signed out.");
  },
  { duringEnrolment: true },
);

export const { GET, POST, PUT, PATCH } = otherMethods("DELETE");
