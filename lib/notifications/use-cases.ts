import "server-only";

import { auditActorOf, auditIpOf, type Actor } from "@/lib/actors/actor";
import { authorize } from "@/lib/actors/permissions";
import { writeAudit } from "@/lib/audit/write";
import type { NotificationPreferences } from "@/lib/client/notifications/preferences";
import type { MarkRead } from "@/lib/client/notifications/view";
import type { Db } from "@/lib/db/client";

import { markRead } from "./inbox";
import { readPreferences, storePreferences } from "./preferences";

// A person's own notifications (docs/architecture.md "Actors"): only a signed-in person has them.

function person(actor: Actor): { id: string; role: "admin" | "operator" | "viewer" } {
  authorize(actor, "account.own");
  if (actor.kind !== "staff") throw new Error("only a person has notifications");
  return actor;
}

export async function markNotificationsRead(db: Db, actor: Actor, which: MarkRead): Promise<{ kind: "marked"; count: number }> {
  const me = person(actor);
  return { kind: "marked", count: await markRead(db, me.id, which) };
}

export async function myPreferences(db: Db, actor: Actor): Promise<NotificationPreferences> {
  const me = person(actor);
  return readPreferences(db, me.id, me.role);
}

/** Saves the person's choices, audited with what they chose. */
export async function changeMyPreferences(
  db: Db,
  actor: Actor,
  prefs: NotificationPreferences,
): Promise<{ kind: "saved"; preferences: NotificationPreferences }> {
  const me = person(actor);
  await db.transaction(async (tx) => {
    await storePreferences(tx, me.id, prefs);
    await writeAudit(tx, { action: "account.notifications_changed", actor: auditActorOf(actor), target: me.id, detail: { ...prefs }, ip: auditIpOf(actor) });
  });
  return { kind: "saved", preferences: await readPreferences(db, me.id, me.role) };
}
