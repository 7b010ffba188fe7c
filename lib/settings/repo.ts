import "server-only";

import { eq } from "drizzle-orm";

import type { Db } from "@/lib/db/client";
import { settings } from "@/lib/db/schema";

export interface TeamSettings {
  /** Everyone must have two-step sign-in; people without it are taken to set it up after their password. */
  require2fa: boolean;
  /** The chasing policy (docs/architecture.md "Payers and chasing"): no ask-again of a tag that declined within this many hours. */
  declineCooldownHours: number;
  /** The chasing policy: at most this many asks of one tag in a campaign family. */
  maxAsksPerTag: number;
  /** The name payers see on pay pages. */
  businessName: string;
}

export const DEFAULT_SETTINGS: TeamSettings = { require2fa: false, declineCooldownHours: 72, maxAsksPerTag: 3, businessName: "Fundboard" };

export async function getSettings(db: Db): Promise<TeamSettings> {
  const [row] = await db
    .select({
      require2fa: settings.require2fa,
      declineCooldownHours: settings.declineCooldownHours,
      maxAsksPerTag: settings.maxAsksPerTag,
      businessName: settings.businessName,
    })
    .from(settings)
    .where(eq(settings.id, 1))
    .limit(1);
  return row ?? DEFAULT_SETTINGS;
}

/** Writes the given fields of the one settings row (the migration made it; the upsert covers a database where it went missing). */
export async function saveSettings(db: Db, next: Partial<TeamSettings>): Promise<TeamSettings> {
  const merged = { ...(await getSettings(db)), ...next };
  await db
    .insert(settings)
    .values({ id: 1, ...merged })
    .onConflictDoUpdate({ target: settings.id, set: { ...next, updatedAt: new Date() } });
  return getSettings(db);
}
