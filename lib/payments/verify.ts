import "server-only";

import { and, eq, inArray, ne, sql } from "drizzle-orm";

import { fundRequests, payments, type PaymentRow } from "@/lib/db/schema";
import { appendEvents } from "@/lib/events/append";
import { runLimited } from "@/lib/jobs/define";
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

type Judged = { uuid: string; verdict: Verdict; transient: boolean };

/**
 * Saves a batch's verdicts in one transaction: each payment's row, its event when the verdict is new (a retried job's
 * repeat adds none) and one live message. `transient`: the verify host could not be asked, which must not undo a
 * verdict reached meanwhile.
 */
async function saveVerdicts(deps: PaymentDeps, judged: readonly Judged[]): Promise<void> {
  if (judged.length === 0) return;
  const now = new Date();
  await deps.db.transaction(async (tx) => {
    const uuids = judged.map((j) => j.uuid);
    const before = new Map(
      (await tx.select({ uuid: payments.uuid, verification: payments.verification }).from(payments).where(inArray(payments.uuid, uuids)).for("update")).map(
        (r) => [r.uuid, r.verification],
      ),
    );
    const saved: PaymentRow[] = [];
    for (const { uuid, verdict, transient } of judged) {
      const [row] = await tx
        .update(payments)
        .set(
          verdict.verification === "verified"
            ? { verification: "verified", verificationError: null, verificationMismatch: false, verifiedAt: now }
            : { verification: "failed", verificationError: verdict.reason, verificationMismatch: verdict.mismatch === true, verifiedAt: now },
        )
        .where(transient ? and(eq(payments.uuid, uuid), ne(payments.verification, "verified")) : eq(payments.uuid, uuid))
        .returning();
      if (row) saved.push(row);
    }
    const changed = saved.filter((row) => before.get(row.uuid) !== row.verification);
    const linked = [...new Set(changed.flatMap((row) => (row.fundRequestId ? [row.fundRequestId] : [])))];
    const requestIds = new Map(
      linked.length === 0
        ? []
        : (await tx.select({ id: fundRequests.id, requestId: fundRequests.requestId }).from(fundRequests).where(inArray(fundRequests.id, linked))).map((r) => [
            r.id,
            r.requestId,
          ]),
    );
    await appendEvents(
      tx,
      changed.map((row) => ({
        type: row.verification === "verified" ? "payment.verified" : "payment.verification_failed",
        data: toPaymentView(row, row.fundRequestId ? (requestIds.get(row.fundRequestId) ?? null) : null, "admin"),
      })),
      now,
    );
    if (saved.length > 0) await announce(tx, ...saved.map((row) => ({ type: "payment.updated" as const, uuid: row.uuid, verification: row.verification })));
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
  const outcome = (await verifyPayments(deps, [uuid])).get(uuid);
  if (!outcome) throw new Error("the payment's verification answered nothing");
  return outcome;
}

/** What the verify host's answer (or its failure) means for one payment, on its `attempts`-th attempt. */
async function judge(deps: PaymentDeps, row: PaymentRow, attempts: number): Promise<Judged | { verification: "unverified"; error: ServiceError }> {
  try {
    const tx = await deps.service.verifyTransaction(row.uuid);
    return { uuid: row.uuid, verdict: compare(row, tx, deps), transient: false };
  } catch (error) {
    if (!(error instanceof ServiceError)) throw error;
    if (error.kind === "not_found")
      return { uuid: row.uuid, verdict: { verification: "failed", reason: "The verify host does not know this transaction." }, transient: false };
    if (RETRYABLE.has(error.kind) && attempts < MAX_VERIFY_ATTEMPTS) return { verification: "unverified", error };
    const reason = `Could not verify after ${attempts} attempt${attempts === 1 ? "" : "s"}: ${error.userMessage} Use Re-verify to try again.`;
    // Never undoes a verdict a Re-verify reached meanwhile.
    return { uuid: row.uuid, verdict: { verification: "failed", reason }, transient: true };
  }
}

/**
 * verifyPayment for a batch (a follow-up job's payments): the rows are read and their attempts counted in a
 * statement each, the verify host asked `concurrency` at a time, and the verdicts saved in one transaction. Answers
 * each uuid's outcome; an unexpected error (not the service's) is thrown once the others are saved.
 */
export async function verifyPayments(deps: PaymentDeps, rawUuids: readonly string[], concurrency = 8): Promise<Map<string, VerifyOutcome>> {
  const uuids = [...new Set(rawUuids.map((u) => u.toLowerCase()))];
  const outcomes = new Map<string, VerifyOutcome>();
  if (uuids.length === 0) return outcomes;
  const rows = await deps.db.select().from(payments).where(inArray(payments.uuid, uuids));
  const found = new Set(rows.map((r) => r.uuid));
  for (const uuid of uuids) if (!found.has(uuid)) outcomes.set(uuid, { verification: "failed", reason: "The payment is no longer recorded." });
  // Nothing to ask about: the service never sent a transaction for it. It stays "recorded by hand, not verified".
  for (const row of rows) if (row.source === "hand") outcomes.set(row.uuid, { verification: "failed", reason: HAND_NOT_VERIFIABLE });
  const asked = rows.filter((r) => r.source !== "hand");
  if (asked.length === 0) return outcomes;
  const counted = await deps.db
    .update(payments)
    .set({ verificationAttempts: sql`${payments.verificationAttempts} + 1` })
    .where(
      inArray(
        payments.uuid,
        asked.map((r) => r.uuid),
      ),
    )
    .returning({ uuid: payments.uuid, attempts: payments.verificationAttempts });
  const attemptsOf = new Map(counted.map((c) => [c.uuid, c.attempts]));
  const judged: Judged[] = [];
  const failures = await runLimited(asked, concurrency, async (row) => {
    const outcome = await judge(deps, row, attemptsOf.get(row.uuid) ?? 1);
    if ("uuid" in outcome) judged.push(outcome);
    outcomes.set(row.uuid, "uuid" in outcome ? outcome.verdict : outcome);
  });
  await saveVerdicts(deps, judged);
  if (failures.length > 0) throw failures[0];
  return outcomes;
}
