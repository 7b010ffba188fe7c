import "server-only";

import { sql } from "drizzle-orm";

import { dayOf } from "@/lib/client/time/zone";
import { queryRows, type Db } from "@/lib/db/client";

/**
 * The first day (in `timeZone`) anything was recorded: a request, a payment or a balance reading; null on a new
 * database. The day book's default range starts there rather than at a month of empty days. Each minimum is read
 * off its table's time index.
 */
export async function firstActivityDay(db: Db, timeZone: string): Promise<string | null> {
  const [row] = await queryRows<{ first: string | null }>(
    db,
    sql`select least(
          (select min(created_at) from fund_requests),
          (select min(received_at) from payments),
          (select min(read_at) from balance_readings))::text as first`,
  );
  return row?.first ? dayOf(new Date(row.first), timeZone) : null;
}
