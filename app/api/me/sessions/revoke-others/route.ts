import { withStaff } from "@/lib/auth/guard";
import { endOtherOwnSessions } from "@/lib/auth/own-account";
import { ok } from "@/lib/http/envelope";
import { otherMethods } from "@/lib/http/other-methods";

export const dynamic = "force-dynamic";

/** "Sign out everywhere else": every session of the person but this one ends. */
export const POST = withStaff(
  "account.own",
  async (_request, { db, actor }) => {
    const { ended } = await endOtherOwnSessions(db, actor);
    return ok({ ended }, ended === 0 ? "No other sessions were open." : `${ended} other session${ended === 1 ? " was" : "s were"} signed out.`);
  },
  { duringEnrolment: true },
);

export const { GET, PUT, PATCH, DELETE } = otherMethods("POST");
