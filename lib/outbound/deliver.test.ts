import { randomBytes } from "node:crypto";

import { eq, inArray } from "drizzle-orm";
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { staffActor, type StaffActor } from "@/lib/actors/actor";
import type { Db } from "@/lib/db/client";
import { auditLog, notifications, outboundDeliveries, webhookEndpoints } from "@/lib/db/schema";
import { appendEvent } from "@/lib/events/append";
import type { Sandbox } from "@/sandbox/server";
import { dbTargets, useTestDatabase } from "@/tests/support/db-targets";
import { newAdmin, receivedHooks } from "@/tests/support/outbound";
import { startTestSandbox } from "@/tests/support/sandbox";

import { attemptDeliveries, attemptDelivery } from "./attempt";
import { ensureDeliveries, ensureDelivery, findDelivery } from "./deliveries";
import { findDeliveriesWithEndpoints, findEndpoints, noteAttempts } from "./endpoints";
import { changeEndpoint, createEndpoint, deleteEndpoint, recoverSince, resendDelivery, rotateSecret } from "./manage";
import { BODY_LIMIT_BYTES } from "./sign";

describe.each(dbTargets())("outgoing webhook deliveries on $name", (target) => {
  const database = useTestDatabase(target, { perTest: true });
  let sandbox: Sandbox;
  beforeAll(async () => {
    sandbox = await startTestSandbox();
  });
  afterAll(async () => sandbox.close());
  const hooks = (name: string) => receivedHooks(sandbox, name);
  const clock = (iso: string) => () => new Date(iso);

  async function endpointAt(db: Db, actor: StaffActor, name: string, query = "") {
    const made = await createEndpoint(db, actor, { url: `${sandbox.apiUrl}/sandbox/hooks/${name}${query}`, description: "", eventTypes: "all", enabled: true });
    if (made.kind !== "created") throw new Error(made.kind);
    return made;
  }

  it("signs with Standard Webhooks: verified with the secret, with either secret while a rotation overlaps, and the same webhook-id on every attempt", async () => {
    const db = database.db;
    const actor = await newAdmin(db);
    const name = `sign-${randomBytes(3).toString("hex")}`;
    const made = await endpointAt(db, actor, name);
    const event = await db.transaction((tx) => appendEvent(tx, "payment.received", { uuid: "u-1", actualAmount: "5000.00" }));
    const delivery = await ensureDelivery(db, made.endpoint.id, event);
    expect(await attemptDelivery({ db }, delivery.id, 0, 1)).toEqual({ kind: "delivered" });
    const [first] = await hooks(name);
    if (!first) throw new Error("nothing received");
    expect(JSON.parse(first.body)).toEqual(event);
    expect(first.headers["webhook-id"]).toBe(event.id);
    expect(new Webhook(made.secret).verify(first.body, first.headers)).toEqual(event);

    const rotated = await rotateSecret(db, actor, made.endpoint.id, 24);
    if (rotated.kind !== "rotated") throw new Error(rotated.kind);
    const resent = await resendDelivery(db, actor, delivery.id);
    expect(resent.kind).toBe("queued");
    expect(await attemptDelivery({ db }, delivery.id, 1, 1)).toEqual({ kind: "delivered" });
    const [second] = await hooks(name);
    if (!second) throw new Error("nothing received");
    expect(second.headers["webhook-id"]).toBe(event.id);
    expect(second.headers["webhook-signature"]?.split(" ")).toHaveLength(2);
    expect(new Webhook(rotated.secret).verify(second.body, second.headers)).toEqual(event);
    expect(new Webhook(made.secret).verify(second.body, second.headers)).toEqual(event);
    // A wrong secret does not verify.
    expect(() => new Webhook(`whsec_${randomBytes(32).toString("base64")}`).verify(second.body, second.headers)).toThrow();
  });

  it("makes a batch's deliveries once each: one per (event, endpoint), a repeated pair and a pair made before answered by the rows made first", async () => {
    const db = database.db;
    const actor = await newAdmin(db);
    const [a, b] = [
      await endpointAt(db, actor, `batch-a-${randomBytes(3).toString("hex")}`),
      await endpointAt(db, actor, `batch-b-${randomBytes(3).toString("hex")}`),
    ];
    const [e1, e2] = await db.transaction(async (tx) => [
      await appendEvent(tx, "payment.received", { uuid: "u-b1", actualAmount: "5000.00" }),
      await appendEvent(tx, "payment.received", { uuid: "u-b2", actualAmount: "7000.00" }),
    ]);
    if (!e1 || !e2) throw new Error("no events");
    const before = await ensureDelivery(db, a.endpoint.id, e1);
    const rows = await ensureDeliveries(db, [
      { endpointId: a.endpoint.id, event: e1 },
      { endpointId: b.endpoint.id, event: e1 },
      { endpointId: a.endpoint.id, event: e2 },
      { endpointId: b.endpoint.id, event: e2 },
      { endpointId: b.endpoint.id, event: e2 },
    ]);
    expect(rows.map((r) => `${r.eventId}:${r.endpointId}`).sort()).toEqual(
      [`${e1.id}:${a.endpoint.id}`, `${e1.id}:${b.endpoint.id}`, `${e2.id}:${a.endpoint.id}`, `${e2.id}:${b.endpoint.id}`].sort(),
    );
    expect(rows.find((r) => r.eventId === e1.id && r.endpointId === a.endpoint.id)?.id).toBe(before.id);
    const again = await ensureDeliveries(db, [{ endpointId: b.endpoint.id, event: e2 }]);
    expect(again.map((r) => r.id)).toEqual(rows.filter((r) => r.eventId === e2.id && r.endpointId === b.endpoint.id).map((r) => r.id));
    expect(
      await db
        .select()
        .from(outboundDeliveries)
        .where(inArray(outboundDeliveries.endpointId, [a.endpoint.id, b.endpoint.id])),
    ).toHaveLength(4);
  });

  it("tries a failing endpoint again on the schedule (5 s, then 1 min), with the same webhook-id, and recover re-sends what failed", async () => {
    const db = database.db;
    const actor = await newAdmin(db);
    const name = `retry-${randomBytes(3).toString("hex")}`;
    const made = await endpointAt(db, actor, name, "?status=500");
    const event = await db.transaction((tx) => appendEvent(tx, "request.declined", { requestId: "42", tag: "ada" }));
    const delivery = await ensureDelivery(db, made.endpoint.id, event);
    const deps = { db, random: () => 0.5 };
    expect(await attemptDelivery({ ...deps, now: clock("2026-11-28T10:00:00Z") }, delivery.id, 0, 1)).toEqual({
      kind: "retry",
      attempt: 2,
      at: new Date("2026-11-28T10:00:05Z"),
    });
    expect(await attemptDelivery({ ...deps, now: clock("2026-11-28T10:00:05Z") }, delivery.id, 0, 2)).toEqual({
      kind: "retry",
      attempt: 3,
      at: new Date("2026-11-28T10:01:05Z"),
    });
    const got = await hooks(name);
    expect(got.map((r) => [r.status, r.headers["webhook-id"]])).toEqual([
      [500, event.id],
      [500, event.id],
    ]);
    const row = await findDelivery(db, delivery.id);
    expect(row).toMatchObject({ status: "pending", attempts: 2, lastStatusCode: 500, nextAttemptAt: new Date("2026-11-28T10:01:05Z") });
    // Run out the attempts: the 11th fails it for good.
    for (let attempt = 3; attempt <= 11; attempt++) await attemptDelivery({ ...deps, now: clock("2026-11-28T11:00:00Z") }, delivery.id, 0, attempt);
    expect(await findDelivery(db, delivery.id)).toMatchObject({ status: "failed", attempts: 11, nextAttemptAt: null });
    const recovered = await recoverSince(db, actor, made.endpoint.id, new Date(Date.now() - 60_000));
    expect(recovered).toEqual({ kind: "queued", count: 1 });
    const again = await findDelivery(db, delivery.id);
    expect(again).toMatchObject({ status: "pending", round: 1 });
    if (!again) throw new Error("the delivery vanished");

    // The receiver is mended (it answers 200 now); the recovered round's first attempt reaches it with the first
    // attempt's webhook-id and the same bytes, signed anew, while a stray attempt of the old round does nothing.
    const mended = await changeEndpoint(db, actor, made.endpoint.id, { url: `${sandbox.apiUrl}/sandbox/hooks/${name}` });
    expect(mended.kind).toBe("updated");
    expect(await attemptDelivery({ db }, delivery.id, 0, 11)).toEqual({ kind: "skipped" });
    expect(await attemptDelivery({ db }, delivery.id, again.round, 1)).toEqual({ kind: "delivered" });
    const received = await hooks(name);
    expect(received).toHaveLength(12);
    const [last] = received;
    const first = received.at(-1);
    if (!last || !first) throw new Error("nothing received");
    expect(last.status).toBe(200);
    expect(last.headers["webhook-id"]).toBe(first.headers["webhook-id"]);
    expect(last.headers["webhook-id"]).toBe(event.id);
    expect(last.body).toBe(first.body);
    expect(new Webhook(made.secret).verify(last.body, last.headers)).toEqual(event);
    expect(await findDelivery(db, delivery.id)).toMatchObject({ status: "delivered", round: 1, attempts: 12 });
  });

  it("sends an event over 64 KiB cut down to its identifying fields and marked truncated, signed over the bytes sent", async () => {
    const db = database.db;
    const actor = await newAdmin(db);
    const name = `large-${randomBytes(3).toString("hex")}`;
    const made = await endpointAt(db, actor, name);
    const event = await db.transaction((tx) => appendEvent(tx, "payer.updated", { tag: "ada", doNotAsk: false, note: "n".repeat(100 * 1024) }));
    const delivery = await ensureDelivery(db, made.endpoint.id, event);
    expect(Buffer.byteLength(delivery.body, "utf8")).toBeLessThanOrEqual(BODY_LIMIT_BYTES);
    expect(await attemptDelivery({ db }, delivery.id, 0, 1)).toEqual({ kind: "delivered" });
    const [got] = await hooks(name);
    if (!got) throw new Error("nothing received");
    expect(Buffer.byteLength(got.body, "utf8")).toBeLessThanOrEqual(BODY_LIMIT_BYTES);
    expect(got.headers["webhook-id"]).toBe(event.id);
    expect(new Webhook(made.secret).verify(got.body, got.headers)).toEqual({
      id: event.id,
      type: "payer.updated",
      createdAt: event.createdAt,
      data: { tag: "ada", truncated: true },
    });
  });

  it("turns an endpoint off at once on 410 Gone, and after 5 days without a success; its admins are told, at 4 days too", async () => {
    const db = database.db;
    const actor = await newAdmin(db);
    const gone = await endpointAt(db, actor, `gone-${randomBytes(3).toString("hex")}`, "?status=410");
    const event = await db.transaction((tx) => appendEvent(tx, "payer.updated", { tag: "ada" }));
    const d1 = await ensureDelivery(db, gone.endpoint.id, event);
    expect((await attemptDelivery({ db }, d1.id, 0, 1)).kind).toBe("failed");
    const [off] = await db.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, gone.endpoint.id));
    expect(off).toMatchObject({ enabled: false, disabledReason: expect.stringContaining("410") });
    expect((await db.select().from(auditLog).where(eq(auditLog.action, "webhook_endpoint.disabled"))).length).toBe(1);

    const failing = await endpointAt(db, actor, `failing-${randomBytes(3).toString("hex")}`, "?status=503");
    const d2 = await ensureDelivery(db, failing.endpoint.id, event);
    await db
      .update(webhookEndpoints)
      .set({ failingSince: new Date("2026-11-20T00:00:00Z") })
      .where(eq(webhookEndpoints.id, failing.endpoint.id));
    // Four days and a bit: a warning, once.
    await attemptDelivery({ db, now: clock("2026-11-24T01:00:00Z") }, d2.id, 0, 1);
    await attemptDelivery({ db, now: clock("2026-11-24T02:00:00Z") }, d2.id, 0, 2);
    const warned = await db.select().from(notifications).where(eq(notifications.staffId, actor.id));
    expect(warned.map((n) => n.type).sort()).toEqual(["webhook_endpoint.disabled", "webhook_endpoint.failing"]);
    // Five days: turned off, and told.
    await attemptDelivery({ db, now: clock("2026-11-25T00:00:01Z") }, d2.id, 0, 3);
    const [five] = await db.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, failing.endpoint.id));
    expect(five).toMatchObject({ enabled: false, disabledReason: "No delivery has succeeded for 5 days." });
    expect((await db.select().from(notifications).where(eq(notifications.staffId, actor.id))).length).toBe(3);
    // Nothing more is sent to an endpoint that is off.
    expect(await attemptDelivery({ db }, d2.id, 0, 4)).toMatchObject({ kind: "failed" });
  });

  it("sends nothing to a deleted endpoint: the batch's read finds its delivery without it, and the delivery fails saying why", async () => {
    const db = database.db;
    const actor = await newAdmin(db);
    const name = `batch-gone-${randomBytes(3).toString("hex")}`;
    const gone = await endpointAt(db, actor, name);
    const event = await db.transaction((tx) => appendEvent(tx, "payer.updated", { tag: "gone1" }));
    const [delivery] = await ensureDeliveries(db, [{ endpointId: gone.endpoint.id, event }]);
    expect(await deleteEndpoint(db, actor, gone.endpoint.id)).toEqual({ kind: "deleted" });
    const rows = await findDeliveriesWithEndpoints(db, [delivery!.id]);
    expect([...rows.deliveries.keys()]).toEqual([delivery!.id]);
    expect(rows.endpoints.size).toBe(0);
    const results = await attemptDeliveries({ db }, [{ deliveryId: delivery!.id, round: 0, attempt: 1 }], rows);
    expect(results).toEqual([{ kind: "failed", why: "The endpoint was deleted; nothing was sent." }]);
    expect(await hooks(name)).toEqual([]);
  });

  it("attempts a batch side by side, and notes each endpoint's outcomes once, as if one by one in time order", async () => {
    const db = database.db;
    const actor = await newAdmin(db);
    const okName = `batch-ok-${randomBytes(3).toString("hex")}`;
    const ok = await endpointAt(db, actor, okName);
    const down = await endpointAt(db, actor, `batch-down-${randomBytes(3).toString("hex")}`, "?status=503");
    const events = await Promise.all([1, 2, 3].map((i) => db.transaction((tx) => appendEvent(tx, "payer.updated", { tag: `batch${i}` }))));
    const deliveries = await ensureDeliveries(db, [
      ...events.map((event) => ({ endpointId: ok.endpoint.id, event })),
      ...events.map((event) => ({ endpointId: down.endpoint.id, event })),
    ]);
    const items = deliveries.map((d) => ({ deliveryId: d.id, round: 0, attempt: 1 }));
    const rows = await findDeliveriesWithEndpoints(
      db,
      items.map((i) => i.deliveryId),
    );
    const results = await attemptDeliveries({ db, now: clock("2026-11-28T10:00:00Z") }, items, rows);
    expect(results.map((r) => r?.kind)).toEqual(["delivered", "delivered", "delivered", "retry", "retry", "retry"]);
    expect((await hooks(okName)).map((h) => JSON.parse(h.body).id).sort()).toEqual(events.map((e) => e.id).sort());
    const [okRow] = await db.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, ok.endpoint.id));
    const [downRow] = await db.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, down.endpoint.id));
    expect(okRow).toMatchObject({ lastSuccessAt: new Date("2026-11-28T10:00:00Z"), failingSince: null });
    expect(downRow).toMatchObject({ lastSuccessAt: null, failingSince: new Date("2026-11-28T10:00:00Z") });

    // One by one in time order: a failure after the batch's last success opens the spell at that failure; a success
    // after every failure closes it; failures alone keep a spell already open.
    const t = (minute: number) => new Date(`2026-11-28T11:0${minute}:00Z`);
    const read = async (id: string) => {
      const row = (await findEndpoints(db, [id])).get(id);
      if (!row) throw new Error(`endpoint ${id} is gone`);
      return row;
    };
    expect(
      await noteAttempts(db, await read(ok.endpoint.id), [
        { delivered: false, at: t(1) },
        { delivered: true, at: t(2) },
        { delivered: false, at: t(3) },
        { delivered: false, at: t(4) },
      ]),
    ).toMatchObject({
      lastSuccessAt: t(2),
      failingSince: t(3),
    });
    expect(
      await noteAttempts(db, await read(ok.endpoint.id), [
        { delivered: false, at: t(5) },
        { delivered: true, at: t(6) },
      ]),
    ).toMatchObject({ lastSuccessAt: t(6), failingSince: null });
    expect(await noteAttempts(db, await read(down.endpoint.id), [{ delivered: false, at: t(7) }])).toMatchObject({
      failingSince: new Date("2026-11-28T10:00:00Z"),
    });
    // Nothing to change, nothing written: a success 4 s after the last one noted, with no spell open.
    const okNow = await read(ok.endpoint.id);
    expect(await noteAttempts(db, okNow, [{ delivered: true, at: new Date(t(6).getTime() + 4_000) }])).toBe(okNow);
    expect(await read(ok.endpoint.id)).toMatchObject({ lastSuccessAt: t(6) });
    // 5 s after it, the new last success is written.
    await noteAttempts(db, okNow, [{ delivered: true, at: new Date(t(6).getTime() + 5_000) }]);
    expect(await read(ok.endpoint.id)).toMatchObject({ lastSuccessAt: new Date(t(6).getTime() + 5_000) });
  });

  it("refuses a URL at the cloud metadata address (in every mode), and refuses a viewer", async () => {
    const db = database.db;
    const actor = await newAdmin(db);
    const made = await createEndpoint(db, actor, { url: "http://169.254.169.254/latest/meta-data", description: "", eventTypes: "all", enabled: true });
    expect(made.kind).toBe("invalid_url");
    const viewer = staffActor({ id: actor.id, email: actor.email, name: actor.name, role: "viewer" });
    await expect(createEndpoint(db, viewer, { url: `${sandbox.apiUrl}/sandbox/hooks/x`, description: "", eventTypes: "all", enabled: true })).rejects.toThrow(
      /may not/,
    );
  });
});
