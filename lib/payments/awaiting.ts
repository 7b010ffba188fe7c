import "server-only";

import { and, gt, isNotNull, isNull, or, sql } from "drizzle-orm";

import type { Db } from "@/lib/db/client";
import { payments } from "@/lib/db/schema";

// Links younger than this still waiting to be confirmed hold new campaign sends back; an older one (its follow-up
// out of retries) is the sweep's, and does not stop a campaign for good.
const HOLD_SENDS_FOR_MS = 5 * 60_000;

/**
 * True while a recent payment's link waits for the service: its confirmation, or the status reads that choose
 * between several matching requests (a payment neither linked nor noted yet). The background budget's order
 * (docs/architecture.md "Pace and retry policies") is these first, then new campaign sends.
 */
export async function linksAwaitingConfirmation(db: Db, now = new Date()): Promise<boolean> {
  const rows = await db
    .select({ one: sql<number>`1` })
    .from(payments)
    .where(
      and(
        gt(payments.receivedAt, new Date(now.getTime() - HOLD_SENDS_FOR_MS)),
        or(and(isNotNull(payments.fundRequestId), isNull(payments.linkConfirmedAt)), and(isNull(payments.fundRequestId), isNull(payments.linkNote))),
      ),
    )
    .limit(1);
  return rows.length > 0;
}
