import type PgBoss from "pg-boss";
import { describe, expect, it } from "vitest";

import type { ApiKeyActor } from "@/lib/actors/actor";
import type { ApiScope } from "@/lib/client/auth/permissions";
import { events } from "@/lib/db/schema";
import { dbTargets, useTestDatabase } from "@/tests/support/db-targets";

import { dispatchEvents } from "./dispatch.job";
import { newEventId } from "./id";
import { readEventLog } from "./log";

// The API's event log (docs/architecture.md "The API"): it pages in the order events were dispatched, so an event whose
// transaction commits after a later one's is still read after a cursor past the later one; a reader without
// payers:read sees a payer's contact masked.

const key = (scopes: ApiScope[]): ApiKeyActor => ({ kind: "api_key", id: "k", name: "ledger", scopes, ownerId: "p", ip: null });
// No consumers: the pass only marks the events dispatched, queueing nothing.
const NO_ENGINE = null as unknown as PgBoss;

describe.each(dbTargets())("the event log on $name", (target) => {
  const database = useTestDatabase(target, { perTest: true });

  const append = (id: string, data: Record<string, unknown> = {}) =>
    database.db.insert(events).values({ id, type: "payment.received", createdAt: new Date(), data });

  it("never skips an event made before another but committed after it: a cursor past the later one still reads it", async () => {
    const earlier = newEventId(Date.now() - 5_000);
    const later = newEventId(Date.now());
    await append(later);
    await dispatchEvents(database.db, NO_ENGINE, []);
    const first = await readEventLog(database.db, key(["events:read"]), { limit: 10 });
    expect(first.items.map((e) => e.id)).toEqual([later]);
    // The earlier event's transaction commits only now.
    await append(earlier);
    expect((await readEventLog(database.db, key(["events:read"]), { after: first.next ?? undefined, limit: 10 })).items).toEqual([]);
    await dispatchEvents(database.db, NO_ENGINE, []);
    const second = await readEventLog(database.db, key(["events:read"]), { after: first.next ?? undefined, limit: 10 });
    expect(second.items.map((e) => e.id)).toEqual([earlier]);
    expect(second.hasMore).toBe(false);
  });

  it("pages oldest first with hasMore, and a cursor no longer kept starts from the oldest kept", async () => {
    const ids = [1, 2, 3].map((i) => newEventId(Date.now() - 10_000 + i));
    for (const id of ids) await append(id);
    await dispatchEvents(database.db, NO_ENGINE, []);
    const page = await readEventLog(database.db, key(["events:read"]), { limit: 2 });
    expect([page.items.map((e) => e.id), page.hasMore]).toEqual([ids.slice(0, 2), true]);
    const gone = await readEventLog(database.db, key(["events:read"]), { after: newEventId(0), limit: 10 });
    expect(gone.items.map((e) => e.id)).toEqual(ids);
  });

  it("masks a payer's e-mail and phone for a key without payers:read, and shows them with it", async () => {
    await append(newEventId(), { uuid: "u", customer: { name: "Ada Obi", tag: "ada.obi", email: "ada.obi@example.com", phone: "+2348031234567" } });
    await dispatchEvents(database.db, NO_ENGINE, []);
    const [hidden] = (await readEventLog(database.db, key(["events:read"]), { limit: 10 })).items;
    expect(hidden?.data.customer).toEqual({ name: "Ada Obi", tag: "ada.obi", email: "a•••@example.com", phone: "•••••••4567" });
    const [shown] = (await readEventLog(database.db, key(["events:read", "payers:read"]), { limit: 10 })).items;
    expect(shown?.data.customer).toMatchObject({ email: "ada.obi@example.com", phone: "+2348031234567" });
  });
});
