import "server-only";

import { sql } from "drizzle-orm";

import type { Db } from "@/lib/db/client";
import { apiAddressWindows, apiIdempotency, apiRateWindows } from "@/lib/db/schema";

import { KEPT_HOURS } from "./idempotency";

// Idempotency keys are answered for 24 h; rate windows count one minute. Past that they only take room.
const RATE_WINDOW_KEPT_MINUTES = 10;

/** Removes idempotency rows past their 24 h and rate windows (keys', refused addresses') past their minute; answers how many rows went. */
export async function pruneApiKeyState(db: Db): Promise<number> {
  const idem = await db
    .delete(apiIdempotency)
    .where(sql`${apiIdempotency.createdAt} < now() - make_interval(hours => ${KEPT_HOURS})`)
    .returning({ key: apiIdempotency.key });
  const windows = await db
    .delete(apiRateWindows)
    .where(sql`${apiRateWindows.windowStart} < now() - make_interval(mins => ${RATE_WINDOW_KEPT_MINUTES})`)
    .returning({ kind: apiRateWindows.kind });
  const refused = await db
    .delete(apiAddressWindows)
    .where(sql`${apiAddressWindows.windowStart} < now() - make_interval(mins => ${RATE_WINDOW_KEPT_MINUTES})`)
    .returning({ window: apiAddressWindows.windowStart });
  return idem.length + windows.length + refused.length;
}
