import { randomBytes } from "node:crypto";

import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";

import type { Role } from "@/lib/client/auth/roles";
import type { Db } from "@/lib/db/client";
import { notifications, staff } from "@/lib/db/schema";
import { appendEvent } from "@/lib/events/append";
import { subscribeFor, type LiveEvent } from "@/lib/live/bus";
import { notifyPerson } from "@/lib/notifications/notify.consumer";
import { dbTargets, useTestDatabase } from "@/tests/support/db-targets";
import { settleLive } from "@/tests/support/live";

// `notification.created` reaches only its recipient (docs/architecture.md "Live updates"): two people's streams, each
// subscribed as `/api/live` subscribes a signed-in person's (subscribeFor), hear the committed notifications of the
// consumer through the database; each hears its own and never the other's, while both hear everyone's events.

async function person(db: Db, role: Role): Promise<string> {
  const [row] = await db
    .insert(staff)
    .values({ email: `${role}-${randomBytes(4).toString("hex")}@example.test`, name: `A ${role}`, role, passwordHash: "x" })
    .returning({ id: staff.id });
  if (!row) throw new Error("no staff row");
  return row.id;
}

describe.each(dbTargets())("notification.created on two people's live streams on $name", (target) => {
  const database = useTestDatabase(target, { live: true });

  it("reaches only its recipient's stream; both streams hear the events that are everyone's", async () => {
    const db = database.db;
    const ada = await person(db, "admin");
    const bola = await person(db, "operator");
    const heard: Record<"ada" | "bola", LiveEvent[]> = { ada: [], bola: [] };
    const streams = [subscribeFor(ada, (e) => heard.ada.push(e)), subscribeFor(bola, (e) => heard.bola.push(e))];
    try {
      const forAda = await db.transaction((tx) =>
        appendEvent(tx, "exception.opened", { id: "live-1", kind: "unlinked_payment", tag: "ada.obi", amount: "5000.00" }),
      );
      const forBola = await db.transaction((tx) =>
        appendEvent(tx, "exception.opened", { id: "live-2", kind: "unlinked_payment", tag: "ada.obi", amount: "700.00" }),
      );
      await notifyPerson(db, forAda.id, ada);
      await notifyPerson(db, forBola.id, bola);
      // Every event committed so far has reached this process's streams (the marker is everyone's).
      await settleLive(db);
      const idOf = async (staffId: string, eventId: string) =>
        (
          await db
            .select({ id: notifications.id })
            .from(notifications)
            .where(and(eq(notifications.staffId, staffId), eq(notifications.eventId, eventId)))
        )[0]?.id;
      const told = (events: LiveEvent[]) => events.filter((e) => e.type === "notification.created");
      expect(told(heard.ada)).toEqual([{ type: "notification.created", staffId: ada, id: await idOf(ada, forAda.id) }]);
      expect(told(heard.bola)).toEqual([{ type: "notification.created", staffId: bola, id: await idOf(bola, forBola.id) }]);
      // Both streams were listening: each heard the marker, which is no one's in particular.
      for (const events of [heard.ada, heard.bola]) expect(events.some((e) => e.type === "campaign.progress")).toBe(true);
    } finally {
      for (const stop of streams) stop();
    }
  });
});
