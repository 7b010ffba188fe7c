import { writeAudit } from "@/lib/audit/write";
import { withStaff } from "@/lib/auth/guard";
import { SENDERS } from "@/lib/auth/roles";
import { badRequest, notFound } from "@/lib/http/api-error";
import { ok } from "@/lib/http/envelope";
import { paymentDeps } from "@/lib/payments/deps";
import { getPayment } from "@/lib/payments/query";
import { verifyPayment } from "@/lib/payments/verify";
import { UUID_RE } from "@/lib/service/schemas";
import { otherMethods } from "@/lib/http/other-methods";

export const dynamic = "force-dynamic";

// Short waits: a person is watching the button, and can press it again.
const REVERIFY_DELAYS_MS = [500, 1500];

export const POST = withStaff<{ uuid: string }>(SENDERS, async (_request, { db, staff, params, ip }) => {
  if (!UUID_RE.test(params.uuid)) throw badRequest("That payment id is not valid: it should be a uuid such as 0b4f3c1e-1111-4222-8333-444455556666.");
  // Payments are stored under the lower-case uuid; verifyPayment matches it exactly.
  const uuid = params.uuid.toLowerCase();
  if (!(await getPayment(db, uuid, staff.role))) throw notFound(`No payment ${params.uuid} has been recorded, so there is nothing to re-verify.`);
  const verdict = await verifyPayment({ ...paymentDeps(db), verifyDelaysMs: REVERIFY_DELAYS_MS }, uuid);
  await writeAudit(db, { action: "payment.reverify", actor: staff, target: uuid, detail: { result: verdict.verification }, ip });
  const updated = await getPayment(db, uuid, staff.role);
  if (!updated) throw notFound(`Payment ${params.uuid} is no longer recorded.`);
  const message = verdict.verification === "verified" ? "Verified at the verify host" : `Verification failed: ${verdict.reason}`;
  return ok(updated, message);
});

export const { GET, PUT, PATCH, DELETE } = otherMethods("POST");
