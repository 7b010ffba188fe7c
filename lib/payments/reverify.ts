import "server-only";

import { auditActorOf, auditIpOf, viewRoleOf, type Actor } from "@/lib/actors/actor";
import { authorize } from "@/lib/actors/permissions";
import { writeAudit } from "@/lib/audit/write";
import { getConfig } from "@/lib/config";
import { scanExceptions } from "@/lib/exceptions/detect";
import type { ServiceError } from "@/lib/service/errors";

import type { PaymentDeps } from "./deps";
import { getPayment } from "./query";
import { verifyPayment } from "./verify";
import type { PaymentView } from "./view";

export type ReverifyOutcome =
  | { kind: "not_found" }
  /** The verify host could not be asked: the payment is as it was. */
  | { kind: "unverified"; error: ServiceError }
  /** Verified or failed; `payment` is null when it is no longer recorded. */
  | { kind: "verified" | "failed"; reason: string | null; payment: PaymentView | null };

/**
 * A person's Re-verify (docs/architecture.md "Actors"): the actor authorized for `payments.reverify`, one attempt at
 * the verify host, its audit row whatever the result, and the payment's exceptions opened or closed by the verdict.
 */
export async function reverifyPayment(deps: PaymentDeps, actor: Actor, rawUuid: string): Promise<ReverifyOutcome> {
  authorize(actor, "payments.reverify");
  const { db } = deps;
  // Payments are stored under the lower-case uuid; verifyPayment matches it exactly.
  const uuid = rawUuid.toLowerCase();
  const role = viewRoleOf(actor);
  if (!(await getPayment(db, uuid, role))) return { kind: "not_found" };
  const verdict = await verifyPayment(deps, uuid);
  await writeAudit(db, {
    action: "payment.reverify",
    actor: auditActorOf(actor),
    target: uuid,
    detail: { result: verdict.verification },
    ip: auditIpOf(actor),
  });
  // A verdict opens or closes this payment's exception now (a re-verify that succeeds clears verification_failed).
  await scanExceptions(db, { paymentUuids: [uuid], now: new Date(), lostWebhookMinutes: getConfig().lostWebhookMinutes });
  if (verdict.verification === "unverified") return { kind: "unverified", error: verdict.error };
  return {
    kind: verdict.verification,
    reason: verdict.verification === "failed" ? verdict.reason : null,
    payment: await getPayment(db, uuid, role),
  };
}
