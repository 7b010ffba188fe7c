import "server-only";

// The one writer of balance_readings (docs/architecture.md, "Owners"): each time the dashboard reads the balance
// from the service, the main wallet's balance is kept for the day book's first and last reading of each day. A value
// unchanged since a reading less than 15 minutes old is not kept again, so an open page adds ~100 rows a day.
import { desc, sql } from "drizzle-orm";

import type { Db } from "@/lib/db/client";
import { balanceReadings } from "@/lib/db/schema";

import type { BalanceView } from "./view";

/** An unchanged balance is read again into the book at most this often. */
export const READING_EVERY_MS = 15 * 60_000;

export async function recordBalanceReading(db: Db, view: BalanceView, at: Date): Promise<boolean> {
  const main = view.wallets.find((w) => w.main) ?? view.wallets[0];
  if (!main) return false;
  const minor = String(main.balanceMinor);
  const [last] = await db
    .select({ readAt: balanceReadings.readAt, same: sql<boolean>`${balanceReadings.mainMinor} = ${minor}::numeric` })
    .from(balanceReadings)
    .orderBy(desc(balanceReadings.readAt))
    .limit(1);
  if (last?.same && at.getTime() - last.readAt.getTime() < READING_EVERY_MS) return false;
  await db.insert(balanceReadings).values({ readAt: at, mainMinor: minor });
  return true;
}
