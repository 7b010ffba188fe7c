import "server-only";

import { invalidateBalance } from "@/lib/balance/cache";

import { eq } from "drizzle-orm";

import { payments } from "@/lib/db/schema";

import type { PaymentDeps } from "./deps";
import { confirmLink, linkPayment } from "./link";
import { verifyPayment } from "./verify";
import { safeErrorSummary } from "@/lib/log/safe-error";

/**
 * At once after a payment's commit (which told the browsers of it): the shared balance is dropped, and the drop's
 * own transaction tells them to re-read it, so none gets the old one (docs/architecture.md "Live updates").
 */
export async function dropBalanceAfterPayment(): Promise<void> {
  await invalidateBalance().catch((error: unknown) => console.error(`[balance] could not invalidate: ${safeErrorSummary(error)}`));
}

/**
 * The payment-follow-up job: link to our request at once (no service call), confirm that link at the service,
 * then verify at the verify host (docs/architecture.md, "A webhook delivery"). Idempotent: a step already done
 * (linked or noted, confirmed, verified) is skipped, so a retried or repeated job changes nothing the first did
 * not. A step that could not be done now (our budget had no room, the service could not be asked) fails the job
 * after the other steps ran, so its retry policy tries again in seconds.
 */
export async function followUpPayment(deps: PaymentDeps, rawUuid: string, options: { link?: boolean } = {}): Promise<void> {
  const uuid = rawUuid.toLowerCase();
  const [row] = await deps.db
    .select({ fundRequestId: payments.fundRequestId, linkNote: payments.linkNote, verification: payments.verification })
    .from(payments)
    .where(eq(payments.uuid, uuid))
    .limit(1);
  if (!row) return;
  // `link: false`: the caller has just tried (the job links a batch first); a second try would ask the service again.
  if (options.link !== false && !row.fundRequestId && row.linkNote === null) await linkPayment(deps, uuid);
  let retry: unknown = null;
  await confirmLink(deps, uuid).catch((error: unknown) => {
    retry = error;
  });
  if (row.verification === "unverified") {
    const outcome = await verifyPayment(deps, uuid);
    if (outcome.verification === "unverified") retry ??= outcome.error;
  }
  if (retry) throw retry;
}
