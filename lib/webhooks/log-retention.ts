import "server-only";

import { sql } from "drizzle-orm";

import { queryRows, type Db } from "@/lib/db/client";
import { webhookDeliveries } from "@/lib/db/schema";

// docs/architecture.md: the delivery log keeps DELIVERY_LOG_DAYS of rows. Deleting in small batches keeps each
// statement short, so deliveries and pages never wait long on the prune's locks.

export const PRUNE_BATCH_ROWS = 5_000;

/** Deletes delivery-log rows received more than `days` days before `now`; answers how many went. */
export async function pruneDeliveryLog(db: Db, days: number, now: Date = new Date(), batchRows: number = PRUNE_BATCH_ROWS): Promise<number> {
  if (!Number.isFinite(days) || days < 1) throw new RangeError(`pruneDeliveryLog: days must be at least 1, not ${days}`);
  const cutoff = new Date(now.getTime() - days * 86_400_000).toISOString();
  let deleted = 0;
  for (;;) {
    const [row] = await queryRows<{ n: number }>(
      db,
      sql`with gone as (
            delete from ${webhookDeliveries}
            where ${webhookDeliveries.id} in (
              select ${webhookDeliveries.id} from ${webhookDeliveries} where ${webhookDeliveries.receivedAt} < ${cutoff} limit ${batchRows}
            )
            returning 1
          )
          select count(*)::int as n from gone`,
    );
    const n = Number(row?.n ?? 0);
    deleted += n;
    if (n < batchRows) return deleted;
    // Let other work on this process (and PGlite's one connection) in between batches.
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
}
