import "server-only";

import { sql } from "drizzle-orm";

import { queryRows, type Db } from "@/lib/db/client";

/** Notifications and digest rows are kept this long (docs/decisions.md "Notifications (issue 39)"). */
export const NOTIFICATION_DAYS = 90;

/** Deletes notifications and digests older than NOTIFICATION_DAYS; answers how many notifications went. */
export async function pruneNotifications(db: Db, now: Date = new Date()): Promise<number> {
  const cutoff = new Date(now.getTime() - NOTIFICATION_DAYS * 86_400_000);
  const [row] = await queryRows<{ n: number }>(
    db,
    sql`with gone as (delete from notifications where created_at < ${cutoff.toISOString()} returning 1) select count(*)::int as n from gone`,
  );
  await db.execute(sql`delete from notification_digests where day < ${cutoff.toISOString().slice(0, 10)}`);
  return Number(row?.n ?? 0);
}
