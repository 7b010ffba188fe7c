import "server-only";

import { eq } from "drizzle-orm";

import type { Db } from "./client";
import { appMeta } from "./schema";

// app_meta's one writer (docs/architecture.md "Owners"): small facts the deployment keeps about itself
// (the database's mode, the ADMIN_RESET markers), one row per key.

/** The value stored under `key`, or null. */
export async function readMeta(db: Db, key: string): Promise<string | null> {
  const [row] = await db.select({ value: appMeta.value }).from(appMeta).where(eq(appMeta.key, key));
  return row?.value ?? null;
}

/** Stores `value` under `key`, replacing what was there. */
export async function putMeta(db: Db, key: string, value: string): Promise<void> {
  await db.insert(appMeta).values({ key, value }).onConflictDoUpdate({ target: appMeta.key, set: { value } });
}

/** Stores `value` under `key` unless something is there already (the primary key decides); answers what is stored. */
export async function claimMeta(db: Db, key: string, value: string): Promise<string> {
  await db.insert(appMeta).values({ key, value }).onConflictDoNothing({ target: appMeta.key });
  return (await readMeta(db, key)) ?? value;
}
