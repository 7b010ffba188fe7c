import "server-only";

import { and, eq } from "drizzle-orm";

import type { CurrentStaff } from "@/lib/auth/session";
import { formatMajor } from "@/lib/client/money";
import { payerKey } from "@/lib/client/payers/tag";
import { getConfig } from "@/lib/config";
import type { Db } from "@/lib/db/client";
import { exceptions, fundRequests, payments, type ExceptionRow } from "@/lib/db/schema";
import { appendEvent } from "@/lib/events/append";
import { announce } from "@/lib/live/notify";
import { auditActorOf, auditIpOf, requirePerson, type Actor } from "@/lib/actors/actor";
import { authorize } from "@/lib/actors/permissions";
import { writeAudit } from "@/lib/audit/write";
import { allOrNothing } from "@/lib/db/all-or-nothing";
import { linkByHand } from "@/lib/payments/link";

import { scanExceptions } from "./detect";
import { toExceptionView } from "./queries";
import { ExceptionRefused } from "./refused";

const conflict = (message: string) => new ExceptionRefused("conflict", message);

// A person's side of the inbox (docs/architecture.md "Closing the books"): resolving with a note, linking an unlinked payment on the way, and
// reopening. Status moves only by a conditional update, so two people at once get one resolve and a 409.

type Who = Pick<CurrentStaff, "id" | "name">;

async function findException(db: Db, id: string): Promise<ExceptionRow> {
  const [row] = await db.select().from(exceptions).where(eq(exceptions.id, id)).limit(1);
  if (!row) throw new ExceptionRefused("not_found", "No such exception. It may have been opened on another dashboard.");
  return row;
}

function alreadyResolved(row: ExceptionRow): never {
  const by = row.resolvedByName ? `by ${row.resolvedByName}` : "by itself (its cause cleared)";
  throw conflict(`This exception was already resolved ${by}. Reopen it first if it needs another look.`);
}

/** What a link by hand joined: the payment's amount paid and the request's amount asked (naira), for the audit row. */
export interface HandLink {
  paid: string;
  asked: string;
}

/**
 * Resolves an open exception with the person's note; with `requestId`, first links its payment to that request:
 * only a verified payment that linking left alone, of the request's amount or with the person saying to accept a
 * different one. `linked` (when given) is told the two amounts.
 */
export async function resolveException(
  db: Db,
  id: string,
  input: { note: string; requestId?: string; acceptDifferentAmount?: boolean },
  who: Who,
  linked?: (amounts: HandLink) => void,
): Promise<ExceptionRow> {
  const row = await findException(db, id);
  if (row.status !== "open") alreadyResolved(row);
  const resolved = { status: "resolved" as const, resolvedById: who.id, resolvedByName: who.name, resolvedAt: new Date(), note: input.note };
  const open = and(eq(exceptions.id, id), eq(exceptions.status, "open"));
  if (input.requestId) {
    await linkAndResolve(db, row, input.requestId, input.acceptDifferentAmount === true, linked ?? (() => undefined), async (tx) => {
      const [moved] = await tx
        .update(exceptions)
        .set({ ...resolved, requestId: input.requestId })
        .where(open)
        .returning();
      if (!moved) throw new Error("resolved meanwhile");
      await appendEvent(tx, "exception.resolved", toExceptionView(moved));
      await announce(tx, { type: "exceptions.changed" });
    });
    // The link clears what else was open about this payment, and a lost-webhook exception of that request.
    await scanExceptions(db, { paymentUuids: [row.paymentUuid ?? ""], now: new Date(), lostWebhookMinutes: getConfig().lostWebhookMinutes });
  } else {
    const moved = await db.transaction(async (tx) => {
      const [done] = await tx.update(exceptions).set(resolved).where(open).returning();
      if (done) {
        await appendEvent(tx, "exception.resolved", toExceptionView(done));
        await announce(tx, { type: "exceptions.changed" });
      }
      return done;
    });
    if (!moved) alreadyResolved(await findException(db, id));
  }
  return findException(db, id);
}

async function linkAndResolve(
  db: Db,
  row: ExceptionRow,
  requestId: string,
  acceptDifferentAmount: boolean,
  linked: (amounts: HandLink) => void,
  resolveInTx: (tx: Db) => Promise<void>,
): Promise<void> {
  // Linking by hand is for a payment linking left alone; a failed or disputed verification is settled otherwise.
  if (row.kind !== "unlinked_payment" && row.kind !== "duplicate_payment")
    throw conflict("Only a payment that was not linked (or a second payment) can be linked to a request here. Resolve this one without a request.");
  const [payment] = row.paymentUuid ? await db.select().from(payments).where(eq(payments.uuid, row.paymentUuid)).limit(1) : [];
  if (!payment) throw conflict("This exception is not about a payment, so there is nothing to link. Resolve it without a request.");
  if (payment.fundRequestId) throw conflict("This payment is already linked to a request. Resolve it without choosing one.");
  if (payment.verification !== "verified" || payment.source !== "webhook")
    throw conflict("This payment is not verified at the verify host, so it cannot settle a request. Re-verify it first, or resolve without a request.");
  const [request] = await db.select().from(fundRequests).where(eq(fundRequests.requestId, requestId)).limit(1);
  if (!request) throw new ExceptionRefused("unknown_request", `No request #${requestId} is recorded here.`);
  if (request.paymentUuid) throw conflict(`Request #${requestId} already has a payment (${request.paymentUuid.slice(0, 8)}…); a request takes one payment.`);
  if (request.status !== "pending" && request.status !== "accepted")
    throw conflict(`Request #${requestId} is ${request.status}; a payment can be linked only to a pending or accepted request.`);
  const paidBy = payment.peerTag ?? payment.customerTag;
  if (payerKey(request.tag) !== payerKey(paidBy))
    throw conflict(
      `Request #${requestId} asked @${payerKey(request.tag)}, but this payment came from @${payerKey(paidBy)}; it cannot be linked to another person's request.`,
    );
  if (payment.actualAmount !== request.amount && !acceptDifferentAmount)
    throw new ExceptionRefused(
      "amount_differs",
      `Request #${requestId} asks ${formatMajor("NGN", request.amount)}, but this payment paid ${formatMajor("NGN", payment.actualAmount)}. Tick "Accept a different amount" to link it anyway; the audit log keeps both amounts.`,
    );
  // The payment's and request's side and this exception's, in one transaction.
  const done = await allOrNothing(db, async (tx) => {
    if (!(await linkByHand(tx, request, payment))) return false;
    await resolveInTx(tx);
    return true;
  });
  if (!done) throw conflict("The request, the payment or this exception changed meanwhile; reload the inbox and try again.");
  linked({ paid: payment.actualAmount, asked: request.amount });
}

/** Reopens a resolved exception; from then on only a person closes it (the scan leaves it open). Tells no browser: see reopenExceptionAudited. */
export async function reopenException(db: Db, id: string): Promise<ExceptionRow> {
  const [moved] = await db
    .update(exceptions)
    .set({ status: "open", resolvedById: null, resolvedByName: null, resolvedAt: null, note: null, reopenedAt: new Date() })
    .where(and(eq(exceptions.id, id), eq(exceptions.status, "resolved")))
    .returning();
  // Open again: `exception.opened`, as when it first opened (in the reopen's transaction, reopenExceptionAudited).
  if (moved) await appendEvent(db, "exception.opened", toExceptionView(moved));
  if (!moved) {
    await findException(db, id);
    throw conflict("This exception is already open.");
  }
  return findException(db, id);
}

/** A person's reopen (`exceptions.resolve`, docs/architecture.md "Actors"), with its audit row (the kind and the payment) in the same transaction. */
export async function reopenExceptionAudited(db: Db, actor: Actor, id: string): Promise<ExceptionRow> {
  authorize(actor, "exceptions.resolve");
  const row = await db.transaction(async (tx) => {
    const reopened = await reopenException(tx, id);
    await writeAudit(tx, {
      action: "exception.reopened",
      actor: auditActorOf(actor),
      target: reopened.id,
      detail: { kind: reopened.kind, paymentUuid: reopened.paymentUuid },
      ip: auditIpOf(actor),
    });
    // Heard at the commit, so a browser's refetch sees the reopened row.
    await announce(tx, { type: "exceptions.changed" });
    return reopened;
  });
  return row;
}

/**
 * A person's resolve as the routes make it: resolveException, then its audit row (who, the note, a link by hand and
 * both amounts when a different amount was accepted). Every front door resolves through here, the actor authorized
 * for `exceptions.resolve` (docs/architecture.md "Actors").
 */
export async function resolveExceptionAudited(
  db: Db,
  actor: Actor,
  id: string,
  input: { note: string; requestId?: string; acceptDifferentAmount?: boolean },
): Promise<ExceptionRow> {
  authorize(actor, "exceptions.resolve");
  const seen: { link: HandLink | null } = { link: null };
  const row = await resolveException(db, id, input, requirePerson(actor), (linked) => (seen.link = linked));
  const { link } = seen;
  await writeAudit(db, {
    action: "exception.resolved",
    actor: auditActorOf(actor),
    target: row.id,
    detail: {
      kind: row.kind,
      note: input.note,
      paymentUuid: row.paymentUuid,
      ...(input.requestId ? { linkedRequestId: input.requestId } : {}),
      ...(link ? { paid: link.paid, asked: link.asked, ...(link.paid !== link.asked ? { acceptedDifferentAmount: true } : {}) } : {}),
    },
    ip: auditIpOf(actor),
  });
  return row;
}
