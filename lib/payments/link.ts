import "server-only";

import { and, eq, inArray, isNull } from "drizzle-orm";

import { fundRequests, payments, type FundRequestRow, type PaymentRow } from "@/lib/db/schema";
import { publish } from "@/lib/live/bus";
import { formatMajor } from "@/lib/client/money";
import { acceptForPayment, undoPaymentLink } from "@/lib/requests/status";

import type { PaymentDeps } from "./deps";

export type LinkOutcome = { linked: true; requestId: string } | { linked: false; note: string };
export type ConfirmOutcome = "confirmed" | "undone" | "nothing to confirm";

// How long a service that still says "pending" is believed over the payment notice: the notice is sent after the
// person accepted, so the service catches up within moments; past this, the link is undone for a person to see.
export const PENDING_GRACE_MS = 10 * 60_000;

async function note(deps: PaymentDeps, uuid: string, text: string): Promise<LinkOutcome> {
  await deps.db.update(payments).set({ linkNote: text }).where(eq(payments.uuid, uuid));
  return { linked: false, note: text };
}

/**
 * Links a payment to the dashboard's fund request at once, with no service call, when exactly one open request to
 * that tag for that amount exists: the request is `accepted` (at the payment's time) and counts in its campaign the
 * moment the payment is recorded. confirmLink asks the service afterwards (docs/architecture.md, "A webhook
 * delivery"). The unique indexes on both sides make a double link impossible even under races.
 */
export async function linkPayment(deps: PaymentDeps, rawUuid: string): Promise<LinkOutcome> {
  const uuid = rawUuid.toLowerCase();
  const { db } = deps;
  const [payment] = await db.select().from(payments).where(eq(payments.uuid, uuid)).limit(1);
  if (!payment) return { linked: false, note: "payment not found" };
  if (payment.fundRequestId) return { linked: false, note: "already linked" };
  const tag = payment.peerTag ?? payment.customerTag;
  // "Accepted" too: the reconciler may have seen the acceptance before this notice arrived.
  const candidates = await db
    .select()
    .from(fundRequests)
    .where(
      and(
        eq(fundRequests.tag, tag),
        eq(fundRequests.amount, payment.amount),
        inArray(fundRequests.status, ["pending", "accepted"]),
        isNull(fundRequests.paymentUuid),
      ),
    )
    .limit(3);
  const amount = formatMajor("NGN", payment.amount);
  if (candidates.length === 0) return note(deps, uuid, `No open request to @${tag} for ${amount} was found; not linked.`);
  if (candidates.length > 1) return note(deps, uuid, `${candidates.length} open requests to @${tag} for ${amount} match; not linked, to avoid guessing.`);
  const [candidate] = candidates;
  if (!candidate?.requestId) return note(deps, uuid, `The matching request to @${tag} was never accepted by the service; not linked.`);

  // The request's side is the status owner's (lib/requests/status.ts); the payment's side runs in its transaction.
  const linked = await acceptForPayment(db, candidate, payment, async (tx) => {
    await tx.update(payments).set({ fundRequestId: candidate.id, linkNote: null, linkConfirmedAt: null }).where(eq(payments.uuid, payment.uuid));
  });
  if (!linked) return note(deps, uuid, `Request #${candidate.requestId} was linked to another payment meanwhile; not linked.`);
  publish({ type: "payment.updated", uuid, verification: payment.verification });
  return { linked: true, requestId: candidate.requestId };
}

/**
 * Asks the service whether the request a payment was linked to at once is accepted there. Accepted: the link is
 * confirmed. Declined, or still pending after PENDING_GRACE_MS: the link is undone, both records say why, and the
 * payment stays unlinked for a person to see. The service could not be asked (our budget, a fault), or still
 * pending within the grace: throws, so the follow-up job's policy asks again.
 */
export async function confirmLink(deps: PaymentDeps, rawUuid: string, now = new Date()): Promise<ConfirmOutcome> {
  const uuid = rawUuid.toLowerCase();
  const { db } = deps;
  const [row] = await db
    .select({ payment: payments, request: fundRequests })
    .from(payments)
    .innerJoin(fundRequests, eq(fundRequests.id, payments.fundRequestId))
    .where(and(eq(payments.uuid, uuid), isNull(payments.linkConfirmedAt)))
    .limit(1);
  if (!row?.request.requestId) return "nothing to confirm";
  const { payment, request } = row;
  const requestId = request.requestId;
  if (!requestId) return "nothing to confirm";
  const status = (await deps.service.getFundRequest(requestId)).request_status;
  if (status === "accepted") {
    const confirmed = await db
      .update(payments)
      .set({ linkConfirmedAt: now })
      .where(and(eq(payments.uuid, uuid), eq(payments.fundRequestId, request.id)))
      .returning({ uuid: payments.uuid });
    if (confirmed.length > 0) publish({ type: "payment.updated", uuid, verification: payment.verification });
    return confirmed.length > 0 ? "confirmed" : "nothing to confirm";
  }
  if (status === "pending" && now.getTime() - payment.receivedAt.getTime() < PENDING_GRACE_MS)
    throw new Error("the service does not yet say the linked request is accepted; asking again");
  const amount = formatMajor("NGN", payment.amount);
  const requestNote = `A payment of ${amount} from @${payment.peerTag ?? payment.customerTag} matched this request, but the service says it is ${status}; the link was undone. Check with the payer.`;
  const paymentNote = `Matched request #${requestId}, but the service says that request is ${status}; the link was undone and this payment is not linked. Check with the payer.`;
  const undone = await undoPaymentLink(db, request, payment.uuid, status === "declined" ? "declined" : "pending", requestNote, async (tx) => {
    await tx.update(payments).set({ fundRequestId: null, linkNote: paymentNote, linkConfirmedAt: null }).where(eq(payments.uuid, payment.uuid));
  });
  if (undone) publish({ type: "payment.updated", uuid, verification: payment.verification });
  return undone ? "undone" : "nothing to confirm";
}

/**
 * A person links a payment that linking left alone to a request (resolving its exception, lib/exceptions): the
 * request turns accepted with this payment, confirmed by the person (the service is not asked again; the audit
 * log says who), and
 * `alsoInTx` (the exception's half) runs in the same transaction. False when the payment or request changed meanwhile.
 */
export async function linkByHand(
  db: PaymentDeps["db"],
  request: Pick<FundRequestRow, "id" | "requestId" | "idempotencyKey">,
  payment: Pick<PaymentRow, "uuid" | "receivedAt" | "verification">,
  alsoInTx: (tx: PaymentDeps["db"]) => Promise<void>,
): Promise<boolean> {
  const linked = await acceptForPayment(db, request, payment, async (tx) => {
    const moved = await tx
      .update(payments)
      .set({ fundRequestId: request.id, linkNote: null, linkConfirmedAt: new Date() })
      .where(and(eq(payments.uuid, payment.uuid), isNull(payments.fundRequestId)))
      .returning({ uuid: payments.uuid });
    if (moved.length === 0) throw new Error("payment linked meanwhile");
    await alsoInTx(tx);
  });
  if (linked) publish({ type: "payment.updated", uuid: payment.uuid, verification: payment.verification });
  return linked;
}
