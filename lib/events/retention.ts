import "server-only";

import { sql } from "drizzle-orm";

import { queryRows, type Db } from "@/lib/db/client";
import { events } from "@/lib/db/schema";

/** Events are kept this long (docs/architecture.md "Events"): the API's event list and any replay read no further back. */
export const EVENT_DAYS = 30;
const BATCH = 5_000;

/** Deletes events made more than EVENT_DAYS before `now`, in short batches; answers how many went. */
export async function pruneEvents(db: Db, now: Date = new Date()): Promise<number> {
  const cutoff = new Date(now.getTime() - EVENT_DAYS * 86_400_000).toISOString();
  let deleted = 0;
  for (;;) {
    const [row] = await queryRows<{ n: number }>(
      db,
      sql`with gone as (
            delete from ${events} where ${events.id} in (select ${events.id} from ${events} where ${events.createdAt} < ${cutoff} limit ${BATCH})
            returning 1
          )
          select count(*)::int as n from gone`,
    );
    const n = Number(row?.n ?? 0);
    deleted += n;
    if (n < BATCH) return deleted;
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
}
