// Reads, after a server has stopped, how many payment rows each delivered uuid left (PGlite is one process at a time).
import { count, inArray } from "drizzle-orm";

import { openDatabase, type DbTarget } from "@/lib/db/client";
import { payments } from "@/lib/db/schema";

const CHUNK = 500;

export async function paymentRowsByUuid(target: DbTarget, uuids: readonly string[]): Promise<Map<string, number>> {
  const database = await openDatabase(target, { migrate: false });
  try {
    const rows = new Map<string, number>();
    for (let i = 0; i < uuids.length; i += CHUNK) {
      const chunk = uuids.slice(i, i + CHUNK).map((u) => u.toLowerCase());
      const found = await database.db.select({ uuid: payments.uuid, n: count() }).from(payments).where(inArray(payments.uuid, chunk)).groupBy(payments.uuid);
      for (const r of found) rows.set(r.uuid, Number(r.n));
    }
    return rows;
  } finally {
    await database.close();
  }
}
