import "server-only";

import { randomUUID } from "node:crypto";

import { and, eq } from "drizzle-orm";

import { auditActorOf, auditIpOf, requirePerson, type Actor } from "@/lib/actors/actor";
import { authorize } from "@/lib/actors/permissions";
import { writeAudit } from "@/lib/audit/write";
import type { HandPayment } from "@/lib/client/exceptions/schemas";
import { nairaToKobo } from "@/lib/client/money";
import type { Db } from "@/lib/db/client";
import { exceptions, fundRequests, type ExceptionRow } from "@/lib/db/schema";
import { appendEvent } from "@/lib/events/append";
import { announce } from "@/lib/live/notify";
import { dropBalanceAfterPayment } from "@/lib/payments/after-record";
import { insertHandPayment, type HandPaymentRecord } from "@/lib/payments/hand-record";
import { acceptForPayment } from "@/lib/requests/status";
import { allOrNothing } from "@/lib/db/all-or-nothing";

import { toExceptionView } from "./queries";
import { ExceptionRefused } from "./refused";

// Settling a lost payment notice (docs/decisions.md, "A lost payment notice, settled by hand"): the person records
// the payment from the bank statement or the service's app. It counts in the day book and the exports, marked
// "recorded by hand, not verified" wherever it shows; the late notice for that request replaces it
// (lib/payments/link.ts replaceHandRecord), so the money is never counted twice.

const conflict = (message: string) => new ExceptionRefused("conflict", message);

export interface HandRecordOutcome {
  exception: ExceptionRow;
  paymentUuid: string;
  requestId: string;
}

/**
 * Records the payment of an open `accepted_without_payment` exception by hand and resolves it with the person's
 * note, in one transaction with the request's link and the audit row. Refused (409) when the exception is of
 * another kind or resolved, or the request has a payment meanwhile.
 */
export async function recordPaymentByHand(db: Db, actor: Actor, id: string, input: { note: string; payment: HandPayment }): Promise<HandRecordOutcome> {
  authorize(actor, "exceptions.resolve");
  const who = requirePerson(actor);
  const [row] = await db.select().from(exceptions).where(eq(exceptions.id, id)).limit(1);
  if (!row) throw new ExceptionRefused("not_found", "No such exception. It may have been opened on another dashboard.");
  if (row.kind !== "accepted_without_payment")
    throw conflict("Only an accepted request whose payment notice never came can be settled by recording its payment by hand.");
  if (row.status !== "open") throw conflict("This exception was already resolved. Reopen it first if it needs another look.");
  const [request] = await db.select().from(fundRequests).where(eq(fundRequests.id, row.subject)).limit(1);
  if (!request?.requestId) throw conflict("The request of this exception is no longer recorded.");
  if (request.paymentUuid) throw conflict(`Request #${request.requestId} has its payment now; resolve this without recording one.`);
  const amount = nairaToKobo(input.payment.amount);
  const fees = nairaToKobo(input.payment.fees);
  if (amount === null || fees === null) throw new Error("hand payment amounts were not parsed");
  const now = new Date();
  const requestId = request.requestId;
  let recorded: HandPaymentRecord | null = null;
  // The uuid is made in the transaction; the request's side takes it there too.
  const uuid = randomUUID();
  const linked = await allOrNothing(db, async (tx) => {
    if (!(await acceptForPayment(tx, request, { uuid, receivedAt: request.decidedAt ?? now }))) return false;
    recorded = await insertHandPayment(tx, request, { amountKobo: amount, feesKobo: fees, reference: input.payment.reference }, who.name, now, uuid);
    const [resolved] = await tx
      .update(exceptions)
      .set({ status: "resolved", resolvedById: who.id, resolvedByName: who.name, resolvedAt: now, note: input.note, paymentUuid: uuid })
      .where(and(eq(exceptions.id, id), eq(exceptions.status, "open")))
      .returning();
    if (!resolved) return false;
    await appendEvent(tx, "exception.resolved", toExceptionView(resolved));
    await writeAudit(tx, {
      action: "payment.recorded_by_hand",
      actor: auditActorOf(actor),
      target: uuid,
      detail: { requestId, exceptionId: id, amount: recorded.actualAmount, fees: recorded.fees, reference: input.payment.reference, note: input.note },
      ip: auditIpOf(actor),
    });
    await announce(tx, { type: "exceptions.changed" });
    return true;
  });
  if (!linked) throw conflict("The request or this exception changed meanwhile; reload the inbox and try again.");
  await dropBalanceAfterPayment();
  const [exception] = await db.select().from(exceptions).where(eq(exceptions.id, id)).limit(1);
  if (!exception) throw new Error("exception vanished");
  return { exception, paymentUuid: uuid, requestId };
}

/** The late notice replaced a hand record (lib/payments/link.ts): the exception it resolved now names the notice's payment. */
export async function handRecordReplaced(tx: Db, handUuid: string, paymentUuid: string): Promise<void> {
  await tx.update(exceptions).set({ paymentUuid }).where(eq(exceptions.paymentUuid, handUuid));
}
