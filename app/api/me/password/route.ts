import { checkRefusal } from "@/app/api/me/confirm";
import { withStaff } from "@/lib/auth/guard";
import { changeOwnPassword } from "@/lib/auth/own-account";
import { parseJsonBody } from "@/lib/http/body";
import { ok } from "@/lib/http/envelope";
import { otherMethods } from "@/lib/http/other-methods";
import { passwordChangeSchema } from "@/lib/client/staff/schemas";

export const dynamic = "force-dynamic";

/** Changes the person's own password; every other session of theirs ends (docs/architecture.md, "Staff accounts"). */
export const POST = withStaff(
  "account.own",
  async (request, { db, actor }) => {
    const outcome = await changeOwnPassword(db, actor, await parseJsonBody(request, passwordChangeSchema));
    if (outcome.kind === "refused") throw checkRefusal(outcome, "currentPassword");
    const ended = outcome.otherSessionsEnded;
    return ok(
      { otherSessionsEnded: ended },
      ended > 0 ? `Password changed. ${ended} other session${ended === 1 ? " was" : "s were"} signed out.` : "Password changed.",
    );
  },
  { duringEnrolment: true },
);

export const { GET, PUT, PATCH, DELETE } = otherMethods("POST");
