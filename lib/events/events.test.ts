import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";

import { parseCampaignCsv } from "@/lib/campaigns/parse";
import { createCampaign, transitionCampaign } from "@/lib/campaigns/repo";
import { EVENT_TYPES } from "@/lib/client/events/catalogue";
import { resolveException } from "@/lib/exceptions/resolve";
import { queryRows } from "@/lib/db/client";
import { events } from "@/lib/db/schema";
import { recordPayment } from "@/lib/payments/record";
import { clientKey } from "@/lib/requests/keys";
import { insertSending, markPending } from "@/lib/requests/status";
import { peerTransferPayloadSchema } from "@/lib/service/schemas";
import { dbTargets, useTestDatabase } from "@/tests/support/db-targets";
import { payload } from "@/tests/support/payloads";
import { insertStaff, newKey, newTag } from "@/tests/support/request-deps";

import { newEventId } from "./id";
import { EVENT_DAYS, pruneEvents } from "./retention";

// Business events are appended in the transaction of their change (docs/architecture.md "Events"): one per change
// that commits, none for one that rolls back or changes nothing.

describe("event ids", () => {
  it("are evt_ and 26 base32 characters, ordered by the millisecond they were made, and never repeat", () => {
    const ids = Array.from({ length: 1_000 }, (_, i) => newEventId(1_764_000_000_000 + Math.floor(i / 10)));
    for (const id of ids) expect(id).toMatch(/^evt_[0-9A-HJKMNP-TV-Z]{26}$/);
    expect(new Set(ids).size).toBe(ids.length);
    const [early, late] = [newEventId(1_764_000_000_000), newEventId(1_764_000_000_001)];
    expect(early < late).toBe(true);
  });

  it("the catalogue is the fifteen public names", () => {
    expect(EVENT_TYPES).toHaveLength(15);
    expect(new Set(EVENT_TYPES).size).toBe(15);
  });
});

const LOG = { remoteAddr: null, body: null, detail: null };

describe.each(dbTargets())("events on $name", (target) => {
  const database = useTestDatabase(target);
  const eventsAbout = (field: string, value: string) =>
    queryRows<{ type: string; data: Record<string, unknown> }>(database.db, sql`select type, data from events where data->>${field} = ${value} order by id`);

  async function sending(tag: string) {
    const row = await insertSending(database.db, {
      reference: `fb_${newKey("evt")}`,
      idempotencyKey: clientKey(newKey("evt")),
      tag,
      amount: "150.00",
      description: "Dues",
      createdBy: null,
    });
    if (!row) throw new Error("insert refused");
    return row;
  }

  it("a committed change has exactly one event, in the object's public shape; a repeat that changes nothing adds none", async () => {
    const row = await sending(newTag("evt"));
    const requestId = `evt${Date.now().toString(36)}${Math.floor(Math.random() * 1e6)}`;
    expect(await markPending(database.db, row.id, requestId)).not.toBeNull();
    expect(await markPending(database.db, row.id, requestId)).toBeNull();
    const got = await eventsAbout("requestId", requestId);
    expect(got).toEqual([{ type: "request.created", data: expect.objectContaining({ requestId, tag: row.tag, amount: "150.00", status: "pending" }) }]);
  });

  it("a change that rolls back leaves no event, and its row as it was", async () => {
    const row = await sending(newTag("evt"));
    const requestId = `evtrb${Date.now().toString(36)}${Math.floor(Math.random() * 1e6)}`;
    const failed = await database.db
      .transaction(async (tx) => {
        await markPending(tx, row.id, requestId);
        throw new Error("the change's later step failed");
      })
      .catch((error: unknown) => error);
    expect(failed).toBeInstanceOf(Error);
    expect(await eventsAbout("requestId", requestId)).toEqual([]);
    const [after] = await queryRows<{ status: string }>(database.db, sql`select status from fund_requests where id = ${row.id}::uuid`);
    expect(after?.status).toBe("sending");
  });

  it("a payment's first delivery appends payment.received, with the actual amount; its repeat appends nothing", async () => {
    const body = payload({ amount: 1500, actual_amount: 1400, settled_amount: 1385, fees: 15 });
    const parsed = peerTransferPayloadSchema.parse(body);
    expect(await recordPayment(database.db, parsed, "major", LOG)).toBe("recorded");
    expect(await recordPayment(database.db, parsed, "major", LOG)).toBe("duplicate");
    const got = await eventsAbout("uuid", body.uuid);
    expect(got).toEqual([{ type: "payment.received", data: expect.objectContaining({ uuid: body.uuid, amount: "1500.00", actualAmount: "1400.00" }) }]);
    expect(JSON.stringify(got)).not.toContain("bvn");
  });

  it("a campaign's start appends campaign.started, its cancel campaign.finished; a refused move appends nothing", async () => {
    const staff = await insertStaff(database.db, "Event Starter");
    const parsed = parseCampaignCsv(new TextEncoder().encode(`tag,amount,description\n${newTag("evtc")},100,Dues\n`));
    if (!parsed.ok) throw new Error(parsed.message);
    const id = await createCampaign(database.db, "Evented dues", parsed.rows, staff.id);
    expect(await eventsAbout("id", id)).toEqual([]);
    expect(await transitionCampaign(database.db, id, "start", staff.id)).toMatchObject({ ok: true });
    expect(await transitionCampaign(database.db, id, "start", staff.id)).toMatchObject({ ok: false });
    expect(await transitionCampaign(database.db, id, "cancel", staff.id)).toMatchObject({ ok: true });
    const got = await eventsAbout("id", id);
    expect(got.map((e) => [e.type, e.data.status, e.data.name])).toEqual([
      ["campaign.started", "sending", "Evented dues"],
      ["campaign.finished", "cancelled", "Evented dues"],
    ]);
  });

  it("a person's resolve appends exception.resolved with the note; resolving it again appends nothing", async () => {
    const staff = await insertStaff(database.db, "Event Resolver");
    const [row] = await queryRows<{ id: string }>(
      database.db,
      sql`insert into exceptions (kind, subject, status, detail) values ('verification_failed', ${newKey("evtx")}, 'open', 'x') returning id`,
    );
    const id = row?.id ?? "";
    await resolveException(database.db, id, { note: "Checked with the bank" }, { id: staff.id, name: staff.name });
    await expect(resolveException(database.db, id, { note: "Again" }, { id: staff.id, name: staff.name })).rejects.toBeInstanceOf(Error);
    const got = await eventsAbout("id", id);
    expect(got.map((e) => [e.type, e.data.status, e.data.note])).toEqual([["exception.resolved", "resolved", "Checked with the bank"]]);
  });

  it(`keeps events ${EVENT_DAYS} days: older ones are pruned, the rest stay`, async () => {
    const now = new Date("2026-11-28T12:00:00Z");
    const old = newEventId(now.getTime() - (EVENT_DAYS + 1) * 86_400_000);
    const kept = newEventId(now.getTime() - (EVENT_DAYS - 1) * 86_400_000);
    await database.db.insert(events).values([
      { id: old, type: "payer.updated", createdAt: new Date(now.getTime() - (EVENT_DAYS + 1) * 86_400_000), data: { tag: "old" } },
      { id: kept, type: "payer.updated", createdAt: new Date(now.getTime() - (EVENT_DAYS - 1) * 86_400_000), data: { tag: "kept" } },
    ]);
    expect(await pruneEvents(database.db, now)).toBeGreaterThanOrEqual(1);
    expect(await database.db.select({ id: events.id }).from(events).where(eq(events.id, old))).toEqual([]);
    expect(await database.db.select({ id: events.id }).from(events).where(eq(events.id, kept))).toEqual([{ id: kept }]);
  });
});
