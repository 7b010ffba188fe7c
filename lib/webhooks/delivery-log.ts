import "server-only";

import type { Db } from "@/lib/db/client";
import { webhookDeliveries } from "@/lib/db/schema";

// The delivery log's one writer for authenticated deliveries (docs/architecture.md "Owners"); refused
// ones are counted and folded by ./rejection-log.ts, the other writer in this domain.

export type DeliveryLog = Omit<typeof webhookDeliveries.$inferInsert, "id" | "receivedAt">;

/** One delivery-log row; `db` may be the transaction that records the payment, so both commit together. */
export async function logDelivery(db: Db, row: DeliveryLog): Promise<void> {
  await db.insert(webhookDeliveries).values(row);
}
