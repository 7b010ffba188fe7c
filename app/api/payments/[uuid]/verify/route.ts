import { withStaff } from "@/lib/auth/guard";
import { notFound } from "@/lib/http/api-error";
import { ok } from "@/lib/http/envelope";
import { paymentDeps } from "@/lib/payments/deps";
import { reverifyPayment } from "@/lib/payments/reverify";
import { getService } from "@/lib/service/app-client";
import { otherMethods } from "@/lib/http/other-methods";

export const dynamic = "force-dynamic";

export const POST = withStaff<{ uuid: string }>("payments.reverify", async (_request, { db, actor, params }) => {
  // The people's client: a person is watching the button, so a hiccup is retried within the click.
  const outcome = await reverifyPayment({ ...paymentDeps(db), service: getService() }, actor, params.uuid);
  if (outcome.kind === "not_found") throw notFound(`No payment ${params.uuid} has been recorded, so there is nothing to re-verify.`);
  // The verify host could not be asked: the person is told so (a 5xx envelope) and the payment is as it was.
  if (outcome.kind === "unverified") throw outcome.error;
  if (!outcome.payment) throw notFound(`Payment ${params.uuid} is no longer recorded.`);
  const message = outcome.kind === "verified" ? "Verified at the verify host" : `Verification failed: ${outcome.reason}`;
  return ok(outcome.payment, message);
});

export const { GET, PUT, PATCH, DELETE } = otherMethods("POST");
