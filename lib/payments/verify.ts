import "server-only";

import { and, eq, ne, sql } from "drizzle-orm";

import { payments, type PaymentRow } from "@/lib/db/schema";
import { publish } from "@/lib/live/bus";
import { formatMajor, serviceAmountToNaira } from "@/lib/client/money";
import { ServiceError } from "@/lib/service/errors";
import type { VerifiedTransaction } from "@/lib/service/schemas";
import { sleep } from "@/lib/util/sleep";

import type { PaymentDeps } from "./deps";

type Verdict = { verification: "verified" } | { verification: "failed"; reason: string };

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
  const saved = await deps.db
    .update(payments)
    .set(
      verdict.verification === "verified"
        ? { verification: "verified", verificationError: null, verifiedAt: now }
        : { verification: "failed", verificationError: verdict.reason, verifiedAt: now },
    )
    .where(transient ? and(eq(payments.uuid, uuid), ne(payments.verification, "verified")) : eq(payments.uuid, uuid))
    .returning({ uuid: payments.uuid });
  if (saved.length > 0) publish({ type: "payment.updated", uuid, verification: verdict.verification });
}

/**
 * Confirms a recorded payment at the verify host, retrying transient failures with backoff.
 * Ends verified, or failed with a reason a person can read.
 */
export async function verifyPayment(deps: PaymentDeps, rawUuid: string): Promise<Verdict> {
  const uuid = rawUuid.toLowerCase();
  const delays = [0, ...deps.verifyDelaysMs];
  let last: ServiceError | null = null;
  for (const [attempt, delay] of delays.entries()) {
    if (delay > 0) await sleep(delay * (0.75 + Math.random() / 2));
    const [row] = await deps.db.select().from(payments).where(eq(payments.uuid, uuid)).limit(1);
    if (!row) return { verification: "failed", reason: "The payment is no longer recorded." };
    // A Re-verify verified it while this one waited to retry: nothing left to do.
    if (attempt > 0 && row.verification === "verified") return { verification: "verified" };
    await deps.db
      .update(payments)
      .set({ verificationAttempts: sql`${payments.verificationAttempts} + 1` })
      .where(and(eq(payments.uuid, uuid)));
    try {
      const tx = await deps.service.verifyTransaction(uuid);
      const verdict = compare(row, tx, deps);
      await save(deps, uuid, verdict);
      return verdict;
    } catch (error) {
      if (!(error instanceof ServiceError)) throw error;
      last = error;
      if (error.kind === "not_found") {
        const verdict: Verdict = { verification: "failed", reason: "The verify host does not know this transaction." };
        await save(deps, uuid, verdict);
        return verdict;
      }
      if (!RETRYABLE.has(error.kind) || attempt === delays.length - 1) break;
    }
  }
  const verdict: Verdict = {
    verification: "failed",
    reason: `Could not verify after ${delays.length} attempts: ${last?.userMessage ?? "unknown error"} Use Re-verify to try again.`,
  };
  await save(deps, uuid, verdict, true);
  return verdict;
}
