import "server-only";

import { invalidateBalance } from "@/lib/balance/cache";

import { inArray } from "drizzle-orm";

import { payments } from "@/lib/db/schema";

import type { PaymentDeps } from "./deps";
import { confirmLink, linkPayment } from "./link";
import { verifyPayments } from "./verify";
import { runLimited } from "@/lib/jobs/define";
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
  const [failure] = await followUpPayments(deps, [rawUuid], options);
  if (failure !== undefined) throw failure;
}

/**
 * followUpPayment for a batch: the rows are read in one statement and the unverified ones verified together
 * (verifyPayments); linking and confirming stay a payment at a time (each may ask the service). Answers what could
 * not be done now, a failure per step.
 */
export async function followUpPayments(
  deps: PaymentDeps,
  rawUuids: readonly string[],
  options: { link?: boolean; concurrency?: number } = {},
): Promise<unknown[]> {
  const uuids = [...new Set(rawUuids.map((u) => u.toLowerCase()))];
  if (uuids.length === 0) return [];
  const rows = await deps.db
    .select({
      uuid: payments.uuid,
      fundRequestId: payments.fundRequestId,
      linkNote: payments.linkNote,
      linkConfirmedAt: payments.linkConfirmedAt,
      verification: payments.verification,
    })
    .from(payments)
    .where(inArray(payments.uuid, uuids));
  const concurrency = options.concurrency ?? 8;
  const failures = await runLimited(rows, concurrency, async (row) => {
    let linked = row.fundRequestId !== null;
    // `link: false`: the caller has just tried (the job links a batch first); a second try would ask the service again.
    if (options.link !== false && !linked && row.linkNote === null) linked = (await linkPayment(deps, row.uuid)).linked;
    // Only a link not yet confirmed has anything to confirm: most payments match no request, and their read is saved.
    if (linked && row.linkConfirmedAt === null) await confirmLink(deps, row.uuid);
  });
  const unverified = rows.filter((r) => r.verification === "unverified").map((r) => r.uuid);
  try {
    for (const outcome of (await verifyPayments(deps, unverified, concurrency)).values())
      if (outcome.verification === "unverified") failures.push(outcome.error);
  } catch (error) {
    failures.push(error);
  }
  return failures;
}
