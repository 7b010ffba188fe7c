import "server-only";

import { and, eq, inArray, isNull } from "drizzle-orm";

import { fundRequests, payments } from "@/lib/db/schema";
import { publish } from "@/lib/live/bus";
import { formatMajor } from "@/lib/client/money";
import { acceptForPayment } from "@/lib/requests/status";
import { ServiceError } from "@/lib/service/errors";

import type { PaymentDeps } from "./deps";

export type LinkOutcome = { linked: true; requestId: string } | { linked: false; note: string };

async function note(deps: PaymentDeps, uuid: string, text: string): Promise<LinkOutcome> {
  await deps.db.update(payments).set({ linkNote: text }).where(eq(payments.uuid, uuid));
  return { linked: false, note: text };
}

/**
 * Links a payment to the dashboard's fund request when exactly one open request to that tag for
 * that amount exists, after the service confirms that request was accepted (docs/architecture.md). The
 * unique indexes on both sides make a double link impossible even under races.
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

  let status: string;
  try {
    status = (await deps.service.getFundRequest(candidate.requestId)).request_status;
  } catch (error) {
    // Our own budget had no room: nothing was asked, so nothing is noted; the follow-up job tries again
    // in seconds (its retry policy) rather than leaving it to the sweep's next minute.
    if (error instanceof ServiceError && error.budgetRefused) throw error;
    const why = error instanceof ServiceError ? error.userMessage : "the service could not be asked";
    return note(deps, uuid, `Request #${candidate.requestId} matches, but could not be confirmed (${why}); not linked.`);
  }
  if (status !== "accepted") return note(deps, uuid, `Request #${candidate.requestId} matches, but the service says it is ${status}; not linked.`);

  // The request's side is the status owner's (lib/requests/status.ts); the payment's side runs in its transaction.
  const linked = await acceptForPayment(db, candidate, payment.uuid, async (tx) => {
    await tx.update(payments).set({ fundRequestId: candidate.id, linkNote: null }).where(eq(payments.uuid, payment.uuid));
  });
  if (!linked) return note(deps, uuid, `Request #${candidate.requestId} was linked to another payment meanwhile; not linked.`);
  publish({ type: "payment.updated", uuid, verification: payment.verification });
  return { linked: true, requestId: candidate.requestId };
}
