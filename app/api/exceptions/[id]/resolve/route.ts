import { withStaff } from "@/lib/auth/guard";
import { resolveExceptionSchema } from "@/lib/client/exceptions/schemas";
import { toExceptionView } from "@/lib/exceptions/queries";
import { recordPaymentByHand } from "@/lib/exceptions/record-by-hand";
import { resolveExceptionAudited } from "@/lib/exceptions/resolve";
import { invalidField } from "@/lib/http/api-error";
import { parseJsonBody } from "@/lib/http/body";
import { ok } from "@/lib/http/envelope";

import { answerRefusal } from "../../refused";
import { otherMethods } from "@/lib/http/other-methods";

export const dynamic = "force-dynamic";

/**
 * Resolves an open exception with a note (required); with `requestId`, links its unlinked payment first; with
 * `payment`, records a lost notice's payment by hand (audited in its transaction). Audited.
 */
export const POST = withStaff<{ id: string }>("exceptions.resolve", async (request, { db, params, actor }) => {
  const input = await parseJsonBody(request, resolveExceptionSchema);
  if (input.payment) {
    if (input.requestId) throw invalidField("Record a payment by hand or link one, not both.", "requestId", "Leave the request empty");
    const outcome = await recordPaymentByHand(db, actor, params.id, { note: input.note, payment: input.payment }).catch(answerRefusal);
    return ok(toExceptionView(outcome.exception), `Resolved: the payment of request #${outcome.requestId} is recorded by hand (not verified).`);
  }
  const row = await resolveExceptionAudited(db, actor, params.id, input).catch(answerRefusal);
  const message = input.requestId ? `Resolved: the payment is linked to request #${input.requestId}.` : "Resolved.";
  return ok(toExceptionView(row), message);
});

export const { GET, PUT, PATCH, DELETE } = otherMethods("POST");
