import "server-only";

import { eq } from "drizzle-orm";

import type { Db } from "@/lib/db/client";
import { settings } from "@/lib/db/schema";

export interface TeamSettings {
  /** Everyone must have two-step sign-in; people without it are taken to set it up after their password. */
  require2fa: boolean;
}

export async function getSettings(db: Db): Promise<TeamSettings> {
  const [row] = await db.select({ require2fa: settings.require2fa }).from(settings).where(eq(settings.id, 1)).limit(1);
  return { require2fa: row?.require2fa ?? false };
}

/** Writes the one settings row (the migration made it; the upsert covers a database where it went missing). */
export async function saveSettings(db: Db, next: TeamSettings): Promise<TeamSettings> {
  await db
    .insert(settings)
    .values({ id: 1, require2fa: next.require2fa })
    .onConflictDoUpdate({ target: settings.id, set: { require2fa: next.require2fa, updatedAt: new Date() } });
  return getSettings(db);
}
