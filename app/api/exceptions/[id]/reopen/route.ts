import { withStaff } from "@/lib/auth/guard";
import { toExceptionView } from "@/lib/exceptions/queries";
import { reopenExceptionAudited } from "@/lib/exceptions/resolve";
import { ok } from "@/lib/http/envelope";

import { answerRefusal } from "../../refused";
import { otherMethods } from "@/lib/http/other-methods";

export const dynamic = "force-dynamic";

/** Reopens a resolved exception; from then on only a person closes it. Audited. */
export const POST = withStaff<{ id: string }>("exceptions.resolve", async (_request, { db, params, actor }) => {
  const row = await reopenExceptionAudited(db, actor, params.id).catch(answerRefusal);
  return ok(toExceptionView(row), "Reopened: it stays open until someone resolves it.");
});

export const { GET, PUT, PATCH, DELETE } = otherMethods("POST");
