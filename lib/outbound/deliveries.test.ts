import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";

import { outboundDeliveries } from "@/lib/db/schema";
import { dbTargets, useTestDatabase } from "@/tests/support/db-targets";

import { DELIVERY_DAYS, pruneDeliveries } from "./deliveries";
import { insertEndpoint } from "./endpoints";
import { newWebhookSecret } from "./secret";

const DAY = 86_400_000;

describe.each(dbTargets())("outgoing webhook deliveries' retention on $name", (target) => {
  const database = useTestDatabase(target, { perTest: true });

  it("removes a delivery made 31 days before the retention pass and keeps one made 29 days before", async () => {
    const db = database.db;
    // A fixed clock for the pass, and each delivery's age from it: nothing here depends on today's date.
    const now = new Date("2026-11-28T10:00:00.000Z");
    const endpoint = await insertEndpoint(db, {
      url: "https://erp.example.test/hooks",
      description: "",
      eventTypes: null,
      enabled: true,
      secret: newWebhookSecret(),
      createdBy: null,
    });
    const made = (eventId: string, ageDays: number) => ({
      endpointId: endpoint.id,
      eventId,
      eventType: "payer.updated",
      body: "{}",
      status: "delivered" as const,
      createdAt: new Date(now.getTime() - ageDays * DAY),
    });
    await db.insert(outboundDeliveries).values([made("evt_old", 31), made("evt_recent", 29)]);

    expect(DELIVERY_DAYS).toBe(30);
    expect(await pruneDeliveries(db, now)).toBe(1);
    const left = await db.select({ eventId: outboundDeliveries.eventId }).from(outboundDeliveries).where(eq(outboundDeliveries.endpointId, endpoint.id));
    expect(left.map((r) => r.eventId)).toEqual(["evt_recent"]);
    // A second pass at the same time finds nothing more to remove.
    expect(await pruneDeliveries(db, now)).toBe(0);
  });
});
