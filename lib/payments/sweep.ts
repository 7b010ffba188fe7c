import "server-only";

import { and, asc, eq, gt, isNotNull, isNull, lt, sql } from "drizzle-orm";

import { payments } from "@/lib/db/schema";
import { markAbandonedUnknown } from "@/lib/requests/status";

import type { PaymentDeps } from "./deps";
import { confirmLink, linkPayment } from "./link";
import { MAX_VERIFY_ATTEMPTS, verifyPayment } from "./verify";

const STALE_AFTER_MS = 2 * 60_000;
// A crash can leave hundreds unverified: 30 a minute clears 500 in under 20 minutes, within the call budget.
const SWEEP_BATCH = 30;
const LINK_RETRY_FOR_MS = 60 * 60_000;
const LINK_RETRY_BATCH = 5;

/**
 * The `sweep` job (every minute, lib/jobs): finishes what a restart interrupted: payments recorded but never verified (or never offered
 * for linking) because the process stopped between the 200 and the follow-up work, and requests
 * it stopped in the middle of sending.
 */
export async function sweepOnce(deps: PaymentDeps, now = new Date()): Promise<number> {
  const stale = new Date(now.getTime() - STALE_AFTER_MS);
  const abandoned = await markAbandonedUnknown(deps.db, stale);
  const rows = await deps.db
    .select({ uuid: payments.uuid, linkNote: payments.linkNote, fundRequestId: payments.fundRequestId })
    .from(payments)
    .where(
      and(
        eq(payments.verification, "unverified"),
        eq(payments.source, "webhook"),
        lt(payments.receivedAt, stale),
        lt(payments.verificationAttempts, MAX_VERIFY_ATTEMPTS),
      ),
    )
    .orderBy(asc(payments.receivedAt))
    .limit(SWEEP_BATCH);
  for (const row of rows) {
    if (!row.fundRequestId && row.linkNote === null) await linkPayment(deps, row.uuid).catch(() => undefined);
    await verifyPayment(deps, row.uuid).catch(() => undefined);
  }
  const unlinked = await deps.db
    .select({ uuid: payments.uuid })
    .from(payments)
    .where(and(isNull(payments.fundRequestId), isNull(payments.linkNote), lt(payments.receivedAt, stale)))
    .limit(SWEEP_BATCH);
  // Tried and not linked within the last hour: no request matched yet, two did, or the service contradicted the
  // link. A few a sweep, picked at random: linking asks nothing of the service, confirming does.
  const retried = await deps.db
    .select({ uuid: payments.uuid })
    .from(payments)
    .where(
      and(
        isNull(payments.fundRequestId),
        isNotNull(payments.linkNote),
        lt(payments.receivedAt, stale),
        gt(payments.receivedAt, new Date(now.getTime() - LINK_RETRY_FOR_MS)),
      ),
    )
    .orderBy(sql`random()`)
    .limit(LINK_RETRY_BATCH);
  for (const row of [...unlinked, ...retried]) await linkPayment(deps, row.uuid).catch(() => undefined);
  // Links made at once whose follow-up ran out of retries before the service confirmed them (or undid them).
  const unconfirmed = await deps.db
    .select({ uuid: payments.uuid })
    .from(payments)
    .where(and(isNotNull(payments.fundRequestId), isNull(payments.linkConfirmedAt), lt(payments.receivedAt, stale)))
    .orderBy(asc(payments.receivedAt))
    .limit(SWEEP_BATCH);
  for (const row of unconfirmed) await confirmLink(deps, row.uuid).catch(() => undefined);
  return abandoned.length + rows.length + unlinked.length + retried.length + unconfirmed.length;
}
