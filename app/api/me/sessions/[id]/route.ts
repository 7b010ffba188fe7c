import { withStaff } from "@/lib/auth/guard";
import { endOwnSession } from "@/lib/auth/own-account";
import { notFound } from "@/lib/http/api-error";
import { ok } from "@/lib/http/envelope";
import { otherMethods } from "@/lib/http/other-methods";

export const dynamic = "force-dynamic";

/** Signs one of the person's own sessions out; its next request is answered 401. */
export const DELETE = withStaff<{ id: string }>(
  "account.own",
  async (_request, { db, actor, params }) => {
    const outcome = await endOwnSession(db, actor, params.id);
    // Another person's session, or one already ended, is "not found": nobody learns other people's session ids.
    if (outcome.kind === "not_found") throw notFound("You have no open session with that id.");
    return ok({ id: outcome.id, current: outcome.current }, outcome.current ? "Signed out." : "That session is signed out.");
  },
  { duringEnrolment: true },
);

export const { GET, POST, PUT, PATCH } = otherMethods("DELETE");
