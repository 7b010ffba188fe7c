import "server-only";

import { and, eq } from "drizzle-orm";

import type { Db } from "@/lib/db/client";
import { notifications, staff } from "@/lib/db/schema";
import { announce } from "@/lib/live/notify";

import { queueEmail } from "./email.job";

// Notices that are no business event (docs/architecture.md "Notifications"): a webhook endpoint failing for 4 days or
// turned off. Every enabled admin gets one notification and its e-mail; `key` makes a repeat a no-op.

export async function tellAdmins(db: Db, notice: { key: string; type: string; title: string; body: string; link: string }): Promise<number> {
  const admins = await db
    .select({ id: staff.id })
    .from(staff)
    .where(and(eq(staff.role, "admin"), eq(staff.disabled, false)));
  let told = 0;
  for (const admin of admins) {
    const made = await db.transaction(async (tx) => {
      const [row] = await tx
        .insert(notifications)
        .values({ staffId: admin.id, eventId: notice.key, type: notice.type, title: notice.title, body: notice.body, link: notice.link, email: "queued" })
        .onConflictDoNothing({ target: [notifications.eventId, notifications.staffId] })
        .returning({ id: notifications.id });
      if (row) await announce(tx, { type: "notification.created", staffId: admin.id, id: row.id });
      return row;
    });
    if (made) {
      told += 1;
      await queueEmail(made.id);
    }
  }
  return told;
}
