import "server-only";

import { invalidateBalance } from "@/lib/balance/cache";
import { publish } from "@/lib/live/bus";

import { eq } from "drizzle-orm";

import { payments } from "@/lib/db/schema";

import type { PaymentDeps } from "./deps";
import { linkPayment } from "./link";
import { verifyPayment } from "./verify";
import { safeErrorSummary } from "@/lib/log/safe-error";
import { ServiceError } from "@/lib/service/errors";

/** At once after the commit: the browsers hear of the payment and the balance is read afresh (docs/architecture.md). */
export async function announcePayment(uuid: string): Promise<void> {
  publish({ type: "payment.recorded", uuid });
  // The shared value is dropped before browsers are told to re-read it, so none gets the old one.
  await invalidateBalance().catch((error: unknown) => console.error(`[balance] could not invalidate: ${safeErrorSummary(error)}`));
  publish({ type: "balance.changed" });
}

/**
 * The payment-follow-up job: link to our request, then verify at the verify host (docs/architecture.md.6).
 * Idempotent: a step already done (linked or noted, verified) is skipped, so a retried or repeated
 * job changes nothing the first did not.
 */
export async function followUpPayment(deps: PaymentDeps, rawUuid: string): Promise<void> {
  const uuid = rawUuid.toLowerCase();
  const [row] = await deps.db
    .select({ fundRequestId: payments.fundRequestId, linkNote: payments.linkNote, verification: payments.verification })
    .from(payments)
    .where(eq(payments.uuid, uuid))
    .limit(1);
  if (!row) return;
  let noRoom: ServiceError | null = null;
  if (!row.fundRequestId && row.linkNote === null) {
    try {
      await linkPayment(deps, uuid);
    } catch (error) {
      if (error instanceof ServiceError && error.budgetRefused) noRoom = error;
      else console.error(`[payments] linking payment ${uuid} failed: ${safeErrorSummary(error)}`);
    }
  }
  if (row.verification === "unverified") await verifyPayment(deps, uuid);
  // The budget had no room to confirm the link: the job's retry policy tries again in seconds (verified stays done).
  if (noRoom) throw noRoom;
}
