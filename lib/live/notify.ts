import "server-only";

import { sql } from "drizzle-orm";

import type { Db } from "@/lib/db/client";

import type { LiveEvent } from "./bus";
import { LIVE_CHANNEL, toPayloads } from "./payloads";

/**
 * Tells every instance's browsers of a change, from inside the change's transaction (docs/architecture.md "Live
 * updates"): Postgres and PGlite both deliver a NOTIFY at the commit and drop it on a rollback, so a browser only
 * ever hears of committed changes, and each instance's listener (lib/live/listen.ts) hands it to its streams.
 */
export async function announce(tx: Db, ...events: LiveEvent[]): Promise<void> {
  for (const payload of toPayloads(events)) await tx.execute(sql`SELECT pg_notify(${LIVE_CHANNEL}, ${payload})`);
}
