import "server-only";

import { and, eq, ne, sql } from "drizzle-orm";

import { fundRequests, payments, type PaymentRow } from "@/lib/db/schema";
import { appendEvent } from "@/lib/events/append";
import { announce } from "@/lib/live/notify";
import { formatMajor, serviceAmountToNaira } from "@/lib/client/money";
import { ServiceError } from "@/lib/service/errors";
import type { VerifiedTransaction } from "@/lib/service/schemas";

import type { PaymentDeps } from "./deps";
import { toPaymentView } from "./view";

// `mismatch`: the verify host disagreed on an amount (an amount_mismatch exception, not verification_failed).
type Verdict = { verification: "verified" } | { verification: "failed"; reason: string; mismatch?: boolean };

const RETRYABLE: ReadonlySet<ServiceError["kind"]> = new Set(["unreachable", "timeout", "rate_limited", "server_error", "bad_response"]);

/** The verify host's word against what the webhook said: uuid, amounts and status must agree. */
export function compare(row: PaymentRow, tx: VerifiedTransaction, deps: Pick<PaymentDeps, "amountUnit">): Verdict {
  if (tx.uuid.toLowerCase() !== row.uuid.toLowerCase())
    return { verification: "failed", reason: `The verify host answered for another transaction (${tx.uuid}).` };
  if (tx.status && !/^(success|successful|completed|paid)$/i.test(tx.status)) {
    return { verification: "failed", reason: `The verify host reports the transaction as "${tx.status}", not successful.` };
  }
  const checks: [string, number | undefined, string][] = [
    ["amount", tx.amount, row.amount],
    ["settled amount", tx.settled_amount, row.settledAmount],
    ["fees", tx.fees, row.fees],
  ];
  for (const [label, reported, recorded] of checks) {
    if (reported === undefined) continue;
    const naira = serviceAmountToNaira(reported, deps.amountUnit);
    if (naira !== recorded) {
      return {
        verification: "failed",
        mismatch: true,
        reason: `The verify host reports ${label} ${formatMajor("NGN", naira)}, but the payment notice said ${formatMajor("NGN", recorded)}.`,
      };
    }
  }
  if (tx.amount === undefined && tx.settled_amount === undefined) {
    return { verification: "failed", reason: "The verify host's answer carries no amount to check." };
  }
  return { verification: "verified" };
}

/** `transient`: the verify host could not be asked, which must not undo a verdict reached meanwhile. */
async function save(deps: PaymentDeps, uuid: string, verdict: Verdict, transient = false): Promise<void> {
  const now = new Date();
  await deps.db.transaction(async (tx) => {
    const [before] = await tx.select({ verification: payments.verification }).from(payments).where(eq(payments.uuid, uuid)).for("update");
    const rows = await tx
      .update(payments)
      .set(
        verdict.verification === "verified"
          ? { verification: "verified", verificationError: null, verificationMismatch: false, verifiedAt: now }
          : { verification: "failed", verificationError: verdict.reason, verificationMismatch: verdict.mismatch === true, verifiedAt: now },
      )
      .where(transient ? and(eq(payments.uuid, uuid), ne(payments.verification, "verified")) : eq(payments.uuid, uuid))
      .returning();
    const [row] = rows;
    // One event per verdict reached: a repeat of the same verdict (a retried job) adds none.
    if (row && before?.verification !== row.verification) {
      const requestId = row.fundRequestId
        ? ((await tx.select({ requestId: fundRequests.requestId }).from(fundRequests).where(eq(fundRequests.id, row.fundRequestId)))[0]?.requestId ?? null)
        : null;
      await appendEvent(tx, row.verification === "verified" ? "payment.verified" : "payment.verification_failed", toPaymentView(row, requestId, "admin"));
    }
    if (row) await announce(tx, { type: "payment.updated", uuid, verification: verdict.verification });
  });
}

/**
 * Verification attempts before a payment the verify host never answered for is marked failed: the
 * follow-up job's run and its 5 retries (about 2.5 min), then the sweep's minutes. Table:
 * docs/architecture.md "Pace and retry policies".
 */
export const MAX_VERIFY_ATTEMPTS = 10;

export const HAND_NOT_VERIFIABLE =
  "This payment was recorded by hand, so the verify host has no transaction to check; it is replaced when its payment notice arrives.";

/** A verdict, or: the verify host could not be asked this time (the caller's retry policy tries again). */
export type VerifyOutcome = Verdict | { verification: "unverified"; error: ServiceError };

/**
 * One attempt to confirm a recorded payment at the verify host (no waiting here: a job's queue policy or
 * the person pressing Re-verify again does the retrying). Ends verified, failed with a reason a person
 * can read, or unverified with the error when the host could not be asked and attempts remain.
 */
export async function verifyPayment(deps: PaymentDeps, rawUuid: string): Promise<VerifyOutcome> {
  const uuid = rawUuid.toLowerCase();
  const [row] = await deps.db.select().from(payments).where(eq(payments.uuid, uuid)).limit(1);
  if (!row) return { verification: "failed", reason: "The payment is no longer recorded." };
  // Nothing to ask about: the service never sent a transaction for it. It stays "recorded by hand, not verified".
  if (row.source === "hand") return { verification: "failed", reason: HAND_NOT_VERIFIABLE };
  const [counted] = await deps.db
    .update(payments)
    .set({ verificationAttempts: sql`${payments.verificationAttempts} + 1` })
    .where(eq(payments.uuid, uuid))
    .returning({ attempts: payments.verificationAttempts });
  const attempts = counted?.attempts ?? 1;
  try {
    const tx = await deps.service.verifyTransaction(uuid);
    const verdict = compare(row, tx, deps);
    await save(deps, uuid, verdict);
    return verdict;
  } catch (error) {
    if (!(error instanceof ServiceError)) throw error;
    if (error.kind === "not_found") {
      const verdict: Verdict = { verification: "failed", reason: "The verify host does not know this transaction." };
      await save(deps, uuid, verdict);
      return verdict;
    }
    if (RETRYABLE.has(error.kind) && attempts < MAX_VERIFY_ATTEMPTS) return { verification: "unverified", error };
    const verdict: Verdict = {
      verification: "failed",
      reason: `Could not verify after ${attempts} attempt${attempts === 1 ? "" : "s"}: ${error.userMessage} Use Re-verify to try again.`,
    };
    // Never undoes a verdict a Re-verify reached meanwhile.
    await save(deps, uuid, verdict, true);
    return verdict;
  }
}
