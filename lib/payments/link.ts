import "server-only";

import { and, asc, eq, inArray, isNotNull, isNull, or, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";

import { writeAudit } from "@/lib/audit/write";

import { fundRequests, payments, type FundRequestRow, type PaymentRow } from "@/lib/db/schema";
import { handRecordReplaced } from "@/lib/exceptions/record-by-hand";
import { announce } from "@/lib/live/notify";
import { formatMajor } from "@/lib/client/money";
import { applyFetched } from "@/lib/requests/refresh";
import { allOrNothing } from "@/lib/db/all-or-nothing";
import { acceptForPayment, movePaymentLink, undoPaymentLink } from "@/lib/requests/status";
import type { RequestStatus } from "@/lib/service/schemas";
import { runLimited } from "@/lib/jobs/define";

import type { PaymentDeps } from "./deps";
import { adjustKeptHour } from "./hour-totals";

export type LinkOutcome = { linked: true; requestId: string } | { linked: false; note: string };
export type ConfirmOutcome = "confirmed" | "undone" | "nothing to confirm";

// How long a service that still says "pending" is believed over the payment notice: the notice is sent after the
// person accepted, so the service catches up within moments; past this, the link is undone for a person to see.
export const PENDING_GRACE_MS = 10 * 60_000;

async function note(deps: PaymentDeps, uuid: string, text: string): Promise<LinkOutcome> {
  await deps.db.update(payments).set({ linkNote: text }).where(eq(payments.uuid, uuid));
  return { linked: false, note: text };
}

// Open requests to one tag for one amount considered at most (a chase round beside its first ask, a few plan
// periods): each costs a status read when several match.
const MAX_CANDIDATES = 6;

/**
 * Links a payment to the dashboard's fund request (docs/architecture.md, "A webhook delivery"). Exactly one open
 * request to that tag for that amount: linked at once, with no service call (confirmLink asks the service
 * afterwards). Several: the service decides, its status reads first in the background order; the oldest it
 * reports accepted that has no payment yet takes this payment (several accepted link in order, one payment each),
 * confirmed by that answer. A request whose send was cut off (`unknown`, no service id) is settled by the payment
 * that matches it when the service says none of the others was accepted. Only what the answers leave ambiguous
 * stays unlinked, its note naming the candidates. The unique indexes on both sides make a double link impossible.
 * Throws when the service could not be asked, or still says pending within PENDING_GRACE_MS: the job asks again.
 */
export async function linkPayment(deps: PaymentDeps, rawUuid: string, now = new Date()): Promise<LinkOutcome> {
  const uuid = rawUuid.toLowerCase();
  const { db } = deps;
  const [payment] = await db.select().from(payments).where(eq(payments.uuid, uuid)).limit(1);
  if (!payment) return { linked: false, note: "payment not found" };
  if (payment.fundRequestId) return { linked: false, note: "already linked" };
  const tag = payment.peerTag ?? payment.customerTag;
  // "Accepted" too: the reconciler may have seen the acceptance before this notice arrived; and an accepted one
  // whose payment a person recorded by hand, which this notice replaces.
  const candidates: Candidate[] = (
    await db
      .select({ request: fundRequests, handUuid: hand.uuid })
      .from(fundRequests)
      .leftJoin(hand, and(eq(hand.uuid, fundRequests.paymentUuid), eq(hand.source, "hand")))
      .where(and(eq(fundRequests.tag, tag), eq(fundRequests.amount, payment.amount), OPEN_FOR_A_PAYMENT))
      .orderBy(asc(fundRequests.createdAt), asc(fundRequests.id))
      .limit(MAX_CANDIDATES)
  ).map((r) => ({ ...r.request, handUuid: r.handUuid }));
  const amount = formatMajor("NGN", payment.amount);
  if (candidates.length === 0) return note(deps, uuid, `No open request to @${tag} for ${amount} was found; not linked.`);
  if (candidates.length === 1) {
    const [only] = candidates as [Candidate];
    // A cut-off send has no service id to confirm against: this payment is the only word on it.
    return (await linkTo(deps, only, payment, only.status === "unknown" ? now : null))
      ? { linked: true, requestId: only.requestId ?? only.reference }
      : note(deps, uuid, `${describe(only)} was linked to another payment meanwhile; not linked.`);
  }

  // Several match: ask the service about each one it knows, oldest first, and keep what it says.
  const said = new Map<string, RequestStatus>();
  for (const c of candidates) {
    if (!c.requestId) continue;
    const fetched = await deps.service.getFundRequest(c.requestId);
    said.set(c.id, fetched.request_status);
    await applyFetched({ ...deps, webhookUrl: "" }, fetched);
  }
  const accepted = candidates.filter((c) => said.get(c.id) === "accepted");
  for (const c of accepted) if (await linkTo(deps, c, payment, now)) return { linked: true, requestId: c.requestId ?? c.reference };
  const unknown = candidates.filter((c) => c.status === "unknown");
  if (accepted.length === 0) {
    const waiting = candidates.some((c) => said.get(c.id) === "pending");
    if (unknown.length === 0 && waiting && now.getTime() - payment.receivedAt.getTime() < PENDING_GRACE_MS)
      throw new Error("the service does not yet say which matching request was accepted; asking again");
    for (const c of unknown) if (await linkTo(deps, c, payment, now)) return { linked: true, requestId: c.requestId ?? c.reference };
  }
  const listed = candidates.map((c) => `${describe(c)} (${c.requestId ? (said.get(c.id) ?? "not asked") : "send cut off"})`).join(", ");
  const why = accepted.length > 0 ? "each one the service says was accepted has a payment already" : "the service says none of them was accepted";
  return note(deps, uuid, `${candidates.length} open requests to @${tag} for ${amount} match: ${listed}; ${why}, so it was not linked.`);
}

/**
 * linkPayment for a batch (a follow-up job's payments): the payments with no open request to their tag for their
 * amount (a burst from outside any campaign, say) are read and noted in a statement each; the rest are linked a
 * payment at a time, `concurrency` at once. Answers what could not be done now.
 */
export async function linkPayments(deps: PaymentDeps, rawUuids: readonly string[], concurrency = 8): Promise<unknown[]> {
  const uuids = [...new Set(rawUuids.map((u) => u.toLowerCase()))];
  if (uuids.length === 0) return [];
  const { db } = deps;
  const unlinked = await db
    .select()
    .from(payments)
    .where(and(inArray(payments.uuid, uuids), isNull(payments.fundRequestId)));
  const tagOf = (p: PaymentRow) => p.peerTag ?? p.customerTag;
  const open =
    unlinked.length === 0
      ? []
      : await db
          .selectDistinct({ tag: fundRequests.tag, amount: fundRequests.amount })
          .from(fundRequests)
          .leftJoin(hand, and(eq(hand.uuid, fundRequests.paymentUuid), eq(hand.source, "hand")))
          .where(and(inArray(fundRequests.tag, [...new Set(unlinked.map(tagOf))]), OPEN_FOR_A_PAYMENT));
  const matched = new Set(open.map((o) => `${o.tag}\u0000${o.amount}`));
  const alone = unlinked.filter((p) => !matched.has(`${tagOf(p)}\u0000${p.amount}`));
  if (alone.length > 0) {
    const notes = alone.map((p) => sql`(${p.uuid}, ${`No open request to @${tagOf(p)} for ${formatMajor("NGN", p.amount)} was found; not linked.`})`);
    await db.execute(
      sql`update payments set link_note = v.note from (values ${sql.join(notes, sql`, `)}) as v(uuid, note) where payments.uuid = v.uuid and payments.fund_request_id is null`,
    );
  }
  const noted = new Set(alone.map((p) => p.uuid));
  return runLimited(
    unlinked.filter((p) => !noted.has(p.uuid)),
    concurrency,
    async (p) => {
      await linkPayment(deps, p.uuid);
    },
  );
}

function describe(request: Pick<FundRequestRow, "requestId" | "reference">): string {
  return request.requestId ? `request #${request.requestId}` : `request ${request.reference}`;
}

type Candidate = FundRequestRow & { handUuid: string | null };
const hand = alias(payments, "hand");
// A request a payment to its tag for its amount may take: open and without a payment, or accepted with one a person
// recorded by hand (which this notice replaces). Read with `hand` joined on the request's payment.
const OPEN_FOR_A_PAYMENT = or(
  and(inArray(fundRequests.status, ["pending", "accepted", "unknown"]), isNull(fundRequests.paymentUuid)),
  and(eq(fundRequests.status, "accepted"), isNotNull(hand.uuid)),
);

/** The request's side is the status owner's (lib/requests/status.ts); the payment's side runs in its transaction. */
async function linkTo(deps: PaymentDeps, request: Candidate, payment: PaymentRow, confirmedAt: Date | null): Promise<boolean> {
  if (request.handUuid) return replaceHandRecord(deps, request, request.handUuid, payment);
  return allOrNothing(deps.db, async (tx) => {
    if (!(await acceptForPayment(tx, request, payment))) return false;
    await tx.update(payments).set({ fundRequestId: request.id, linkNote: null, linkConfirmedAt: confirmedAt }).where(eq(payments.uuid, payment.uuid));
    await announce(tx, { type: "payment.updated", uuid: payment.uuid, verification: payment.verification });
    return true;
  });
}

/**
 * The late notice of a request whose payment a person recorded by hand: the notice's payment takes the request and
 * the hand record is removed (its sums leave the kept hour, its payer's counts go back by trigger), so the money is
 * counted once; the audit row keeps what the person had recorded. The link is confirmed like any other.
 */
async function replaceHandRecord(deps: PaymentDeps, request: Candidate, handUuid: string, payment: PaymentRow): Promise<boolean> {
  const [old] = await deps.db.select().from(payments).where(eq(payments.uuid, handUuid)).limit(1);
  if (!old) return false;
  return allOrNothing(deps.db, async (tx) => {
    if (!(await movePaymentLink(tx, request, handUuid, payment.uuid))) return false;
    await tx.delete(payments).where(and(eq(payments.uuid, handUuid), eq(payments.source, "hand")));
    await adjustKeptHour(tx, old, -1);
    await tx.update(payments).set({ fundRequestId: request.id, linkNote: null, linkConfirmedAt: null }).where(eq(payments.uuid, payment.uuid));
    await handRecordReplaced(tx, handUuid, payment.uuid);
    await writeAudit(tx, {
      action: "payment.hand_record_replaced",
      target: payment.uuid,
      detail: {
        requestId: request.requestId,
        handUuid,
        handAmount: old.actualAmount,
        handFees: old.fees,
        handReference: old.handReference,
        recordedBy: old.recordedByName,
      },
    });
    await announce(tx, { type: "payment.updated", uuid: payment.uuid, verification: payment.verification });
    return true;
  });
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
    const confirmed = await db.transaction(async (tx) => {
      const rows = await tx
        .update(payments)
        .set({ linkConfirmedAt: now })
        .where(and(eq(payments.uuid, uuid), eq(payments.fundRequestId, request.id)))
        .returning({ uuid: payments.uuid });
      if (rows.length > 0) await announce(tx, { type: "payment.updated", uuid, verification: payment.verification });
      return rows.length > 0;
    });
    return confirmed ? "confirmed" : "nothing to confirm";
  }
  if (status === "pending" && now.getTime() - payment.receivedAt.getTime() < PENDING_GRACE_MS)
    throw new Error("the service does not yet say the linked request is accepted; asking again");
  const amount = formatMajor("NGN", payment.amount);
  const requestNote = `A payment of ${amount} from @${payment.peerTag ?? payment.customerTag} matched this request, but the service says it is ${status}; the link was undone. Check with the payer.`;
  const paymentNote = `Matched request #${requestId}, but the service says that request is ${status}; the link was undone and this payment is not linked. Check with the payer.`;
  const undone = await allOrNothing(db, async (tx) => {
    if (!(await undoPaymentLink(tx, request, payment.uuid, status === "declined" ? "declined" : "pending", requestNote))) return false;
    await tx.update(payments).set({ fundRequestId: null, linkNote: paymentNote, linkConfirmedAt: null }).where(eq(payments.uuid, payment.uuid));
    await announce(tx, { type: "payment.updated", uuid, verification: payment.verification });
    return true;
  });
  return undone ? "undone" : "nothing to confirm";
}

/**
 * A person links a payment that linking left alone to a request (resolving its exception, lib/exceptions), in the
 * caller's transaction: the request turns accepted with this payment, confirmed by the person (the service is not
 * asked again; the audit log says who). False when the payment or request changed meanwhile: the caller's
 * transaction then keeps nothing (lib/db/all-or-nothing.ts).
 */
export async function linkByHand(
  tx: PaymentDeps["db"],
  request: Pick<FundRequestRow, "id" | "requestId" | "idempotencyKey">,
  payment: Pick<PaymentRow, "uuid" | "receivedAt" | "verification">,
): Promise<boolean> {
  if (!(await acceptForPayment(tx, request, payment))) return false;
  const moved = await tx
    .update(payments)
    .set({ fundRequestId: request.id, linkNote: null, linkConfirmedAt: new Date() })
    .where(and(eq(payments.uuid, payment.uuid), isNull(payments.fundRequestId)))
    .returning({ uuid: payments.uuid });
  if (moved.length === 0) return false;
  await announce(tx, { type: "payment.updated", uuid: payment.uuid, verification: payment.verification });
  return true;
}
