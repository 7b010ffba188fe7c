import "server-only";

import { and, eq, inArray, isNull, lt } from "drizzle-orm";

import type { Db } from "@/lib/db/client";
import { fundRequests, type FundRequestRow } from "@/lib/db/schema";
import { appendEvent } from "@/lib/events/append";
import { announce } from "@/lib/live/notify";

import { campaignOfKey, type StoredKey } from "./keys";
import { toRequestView } from "./view";

// The one owner of a fund request's status (docs/architecture.md, "Owners"): every write of
// fund_requests.status is here, and so is every `request.updated` live event, announced inside the write's transaction.
// Status only moves forward: sending → pending/failed/unknown, pending → accepted/declined, unknown → accepted
// (its payment); the one way back is
// undoPaymentLink, for a payment linked at once that the service then contradicts.

// The event names the request and, for a campaign row's request, its campaign: browsers re-read exactly those.
function tellBrowsers(tx: Db, ...rows: Pick<FundRequestRow, "requestId" | "idempotencyKey" | "status">[]): Promise<void> {
  return announce(
    tx,
    ...rows.map((row) => ({ type: "request.updated" as const, requestId: row.requestId, campaignId: campaignOfKey(row.idempotencyKey), status: row.status })),
  );
}

/** Records the request before the service is called; null when the idempotency key was used already. */
export async function insertSending(
  db: Db,
  values: {
    reference: string;
    idempotencyKey: StoredKey;
    tag: string;
    amount: string;
    description: string;
    businessReference?: string | null;
    createdBy: string | null;
  },
): Promise<FundRequestRow | null> {
  const row = await db.transaction(async (tx) => {
    const [inserted] = await tx
      .insert(fundRequests)
      .values({ ...values, status: "sending" })
      .onConflictDoNothing({ target: fundRequests.idempotencyKey })
      .returning();
    if (inserted) await tellBrowsers(tx, inserted);
    return inserted;
  });
  return row ?? null;
}

/**
 * The service took the request: it is pending, and `request.created` is appended with it (docs/architecture.md
 * "Events"), naming who asked (a person, or "API key <name>" for a key) when the caller knows.
 */
export async function markPending(db: Db, id: string, requestId: string, createdByName?: string): Promise<FundRequestRow | null> {
  const row = await db.transaction(async (tx) => {
    const [moved] = await tx
      .update(fundRequests)
      .set({ status: "pending", requestId, error: null, updatedAt: new Date() })
      .where(and(eq(fundRequests.id, id), eq(fundRequests.status, "sending")))
      .returning();
    if (moved) {
      await appendEvent(tx, "request.created", toRequestView(moved, createdByName));
      await tellBrowsers(tx, moved);
    }
    return moved;
  });
  return row ?? null;
}

/** A `sending` row whose call never left (the shared budget refused it): removed, freeing its idempotency key. */
export async function deleteSending(db: Db, id: string): Promise<void> {
  await db.delete(fundRequests).where(and(eq(fundRequests.id, id), eq(fundRequests.status, "sending")));
}

export async function markFailed(db: Db, id: string, error: string, failureKind: string | null = null): Promise<FundRequestRow | null> {
  const row = await db.transaction(async (tx) => {
    const [moved] = await tx
      .update(fundRequests)
      .set({ status: "failed", error, failureKind, updatedAt: new Date() })
      .where(and(eq(fundRequests.id, id), eq(fundRequests.status, "sending")))
      .returning();
    if (moved) {
      await appendEvent(tx, "request.failed", toRequestView(moved));
      await tellBrowsers(tx, moved);
    }
    return moved;
  });
  return row ?? null;
}

/**
 * Requests left `sending` by a process that stopped mid-call (a create finishes within its timeout): whether the
 * service received them is unknown, so they become `unknown`, never `failed`: not sent again, and settled by the
 * first payment that matches them (lib/payments/link.ts; docs/decisions.md, "A send cut off by a crash").
 */
export async function markAbandonedUnknown(db: Db, olderThan: Date): Promise<FundRequestRow[]> {
  return db.transaction(async (tx) => {
    const rows = await tx
      .update(fundRequests)
      .set({
        status: "unknown",
        error:
          "The dashboard stopped while sending this request, so whether the service received it is unknown. It is not sent again; the first payment from this tag for this amount settles it.",
        updatedAt: new Date(),
      })
      .where(and(eq(fundRequests.status, "sending"), lt(fundRequests.createdAt, olderThan)))
      .returning();
    await tellBrowsers(tx, ...rows);
    return rows;
  });
}

export interface ServiceState {
  status: "pending" | "accepted" | "declined";
  requestedBy: { name: string; tag: string };
  requestedSentTo: { name: string; tag: string };
  serviceCreatedAt: Date | null;
  serviceUpdatedAt: Date | null;
}

/**
 * Applies what the service says. Status only moves forward (pending → accepted/declined): the
 * transition is one conditional UPDATE, so concurrent refreshes and deliveries cannot move it back.
 * Returns the row and whether the status changed.
 */
export async function applyServiceState(db: Db, requestId: string, s: ServiceState): Promise<{ row: FundRequestRow | null; changed: boolean }> {
  const now = new Date();
  const decided = s.status;
  // The move, the service's details and the move's event commit together.
  const { row, changed } = await db.transaction(async (tx) => {
    let moved = false;
    if (decided !== "pending") {
      const rows = await tx
        .update(fundRequests)
        .set({ status: decided, serviceUpdatedAt: s.serviceUpdatedAt, decidedAt: s.serviceUpdatedAt ?? now, updatedAt: now })
        .where(and(eq(fundRequests.requestId, requestId), inArray(fundRequests.status, ["pending", "sending"])))
        .returning({ id: fundRequests.id });
      moved = rows.length > 0;
    }
    const [updated] = await tx
      .update(fundRequests)
      .set({
        requestedBy: s.requestedBy,
        requestedSentTo: s.requestedSentTo,
        serviceCreatedAt: s.serviceCreatedAt,
        lastCheckedAt: now,
      })
      .where(eq(fundRequests.requestId, requestId))
      .returning();
    if (updated && moved && decided !== "pending") {
      await appendEvent(tx, decided === "accepted" ? "request.accepted" : "request.declined", toRequestView(updated));
      await tellBrowsers(tx, updated);
    }
    return { row: updated, changed: moved };
  });
  return { row: row ?? null, changed };
}

/**
 * A payment's link, in the caller's transaction (lib/db/all-or-nothing.ts): the request becomes `accepted` with the
 * payment's uuid, decided at the payment's time. False, with nothing written, when the request changed meanwhile
 * (linked elsewhere, declined); the caller then writes nothing of its own either.
 */
export async function acceptForPayment(
  tx: Db,
  request: Pick<FundRequestRow, "id" | "requestId" | "idempotencyKey">,
  payment: { uuid: string; receivedAt: Date },
): Promise<boolean> {
  const [before] = await tx.select({ status: fundRequests.status }).from(fundRequests).where(eq(fundRequests.id, request.id));
  const [moved] = await tx
    .update(fundRequests)
    .set({ paymentUuid: payment.uuid, status: "accepted", decidedAt: payment.receivedAt, updatedAt: new Date() })
    .where(and(eq(fundRequests.id, request.id), isNull(fundRequests.paymentUuid), inArray(fundRequests.status, ["pending", "accepted", "unknown"])))
    .returning();
  if (!moved) return false;
  // Accepted now by its payment; one the service had already called accepted has its event from then.
  if (before?.status !== "accepted") await appendEvent(tx, "request.accepted", toRequestView(moved));
  await tellBrowsers(tx, moved);
  return true;
}

/**
 * A request's payment recorded by hand is replaced by its late payment notice, in the caller's transaction: the
 * request keeps its status and takes `toUuid`. False, with nothing written, when it changed meanwhile.
 */
export async function movePaymentLink(
  tx: Db,
  request: Pick<FundRequestRow, "id" | "requestId" | "idempotencyKey">,
  fromUuid: string,
  toUuid: string,
): Promise<boolean> {
  const rows = await tx
    .update(fundRequests)
    .set({ paymentUuid: toUuid, updatedAt: new Date() })
    .where(and(eq(fundRequests.id, request.id), eq(fundRequests.paymentUuid, fromUuid), eq(fundRequests.status, "accepted")))
    .returning({ id: fundRequests.id });
  if (rows.length === 0) return false;
  await tellBrowsers(tx, { requestId: request.requestId, idempotencyKey: request.idempotencyKey, status: "accepted" });
  return true;
}

/**
 * The one way back, in the caller's transaction: a payment linked at once whose request the service then reported
 * `pending` or `declined` (lib/payments/link.ts confirmLink). The request takes the service's status with `note`
 * saying why. False, with nothing written, when it was not linked to that payment.
 */
export async function undoPaymentLink(
  tx: Db,
  request: Pick<FundRequestRow, "id" | "requestId" | "idempotencyKey">,
  paymentUuid: string,
  serviceStatus: "pending" | "declined",
  note: string,
): Promise<boolean> {
  const [moved] = await tx
    .update(fundRequests)
    .set({ paymentUuid: null, status: serviceStatus, decidedAt: serviceStatus === "declined" ? new Date() : null, error: note, updatedAt: new Date() })
    .where(and(eq(fundRequests.id, request.id), eq(fundRequests.paymentUuid, paymentUuid), eq(fundRequests.status, "accepted")))
    .returning();
  if (!moved) return false;
  if (serviceStatus === "declined") await appendEvent(tx, "request.declined", toRequestView(moved));
  await tellBrowsers(tx, moved);
  return true;
}
