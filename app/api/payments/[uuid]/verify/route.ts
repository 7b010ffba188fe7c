import { writeAudit } from "@/lib/audit/write";
import { getConfig } from "@/lib/config";
import { scanExceptions } from "@/lib/exceptions/detect";
import { withStaff } from "@/lib/auth/guard";
import { SENDERS } from "@/lib/client/auth/roles";
import { notFound } from "@/lib/http/api-error";
import { ok } from "@/lib/http/envelope";
import { paymentDeps } from "@/lib/payments/deps";
import { getPayment } from "@/lib/payments/query";
import { verifyPayment } from "@/lib/payments/verify";
import { getService } from "@/lib/service/app-client";
import { otherMethods } from "@/lib/http/other-methods";

export const dynamic = "force-dynamic";

export const POST = withStaff<{ uuid: string }>(SENDERS, async (_request, { db, staff, params, ip }) => {
  // Payments are stored under the lower-case uuid; verifyPayment matches it exactly.
  const uuid = params.uuid.toLowerCase();
  if (!(await getPayment(db, uuid, staff.role))) throw notFound(`No payment ${params.uuid} has been recorded, so there is nothing to re-verify.`);
  // The people's client: a person is watching the button, so a hiccup is retried within the click.
  const verdict = await verifyPayment({ ...paymentDeps(db), service: getService() }, uuid);
  await writeAudit(db, { action: "payment.reverify", actor: staff, target: uuid, detail: { result: verdict.verification }, ip });
  // A verdict opens or closes this payment's exception now (a re-verify that succeeds clears verification_failed).
  await scanExceptions(db, { paymentUuids: [uuid], now: new Date(), lostWebhookMinutes: getConfig().lostWebhookMinutes });
  // The verify host could not be asked: the person is told so (a 5xx envelope) and the payment is as it was.
  if (verdict.verification === "unverified") throw verdict.error;
  const updated = await getPayment(db, uuid, staff.role);
  if (!updated) throw notFound(`Payment ${params.uuid} is no longer recorded.`);
  const message = verdict.verification === "verified" ? "Verified at the verify host" : `Verification failed: ${verdict.reason}`;
  return ok(updated, message);
});

export const { GET, PUT, PATCH, DELETE } = otherMethods("POST");
