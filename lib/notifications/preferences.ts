import "server-only";

import { eq } from "drizzle-orm";

import type { Role } from "@/lib/client/auth/roles";
import { EVENT_TYPES, type EventType } from "@/lib/client/events/catalogue";
import { CHANNELS, defaultPreferences, type Channel, type NotificationPreferences } from "@/lib/client/notifications/preferences";
import type { Db } from "@/lib/db/client";
import { notificationPreferences } from "@/lib/db/schema";

// The one writer of notification_preferences (docs/architecture.md "Owners"); a person without a row has their role's defaults.

type StoredPreferences = typeof notificationPreferences.$inferSelect;

/**
 * A stored row over the role's defaults: a type added since the person saved keeps its default. A type kept for the
 * digest by someone whose digest is off (saved before that was refused) is shown in the dashboard only: nothing waits
 * for a digest that is never sent.
 */
export function mergePreferences(role: Role, row: StoredPreferences | null | undefined): NotificationPreferences {
  const defaults = defaultPreferences(role);
  if (!row) return defaults;
  const choices = { ...defaults.choices };
  for (const type of EVENT_TYPES) {
    const chosen = row.choices[type];
    if (chosen && (CHANNELS as readonly string[]).includes(chosen)) choices[type] = chosen as Channel;
    if (choices[type] === "digest" && !row.digest) choices[type] = "dashboard";
  }
  return { choices, paymentThreshold: row.paymentThreshold, digest: row.digest };
}

export async function readPreferences(db: Db, staffId: string, role: Role): Promise<NotificationPreferences> {
  const [row] = await db.select().from(notificationPreferences).where(eq(notificationPreferences.staffId, staffId)).limit(1);
  return mergePreferences(role, row);
}

/** Every stored row, by person (the consumer reads them once per event, not once per person). */
export async function allPreferences(db: Db): Promise<Map<string, StoredPreferences>> {
  const rows = await db.select().from(notificationPreferences);
  return new Map(rows.map((r) => [r.staffId, r]));
}

export async function storePreferences(db: Db, staffId: string, prefs: NotificationPreferences): Promise<void> {
  const values = { choices: prefs.choices as Record<EventType, string>, paymentThreshold: prefs.paymentThreshold, digest: prefs.digest, updatedAt: new Date() };
  await db
    .insert(notificationPreferences)
    .values({ staffId, ...values })
    .onConflictDoUpdate({ target: notificationPreferences.staffId, set: values });
}
