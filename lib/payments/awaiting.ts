import "server-only";

import { and, gt, isNotNull, isNull, sql } from "drizzle-orm";

import type { Db } from "@/lib/db/client";
import { payments } from "@/lib/db/schema";

// Links younger than this still waiting to be confirmed hold new campaign sends back; an older one (its follow-up
// out of retries) is the sweep's, and does not stop a campaign for good.
const HOLD_SENDS_FOR_MS = 5 * 60_000;

/**
 * True while a recent payment's link waits for the service's confirmation: the background budget's order (DESIGN
 * §9; docs/architecture.md "Pace and retry policies") is confirmations first, then new campaign sends.
 */
export async function linksAwaitingConfirmation(db: Db, now = new Date()): Promise<boolean> {
  const rows = await db
    .select({ one: sql<number>`1` })
    .from(payments)
    .where(and(isNotNull(payments.fundRequestId), isNull(payments.linkConfirmedAt), gt(payments.receivedAt, new Date(now.getTime() - HOLD_SENDS_FOR_MS))))
    .limit(1);
  return rows.length > 0;
}
