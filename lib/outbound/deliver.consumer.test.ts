import { randomBytes } from "node:crypto";

import { eq, sql } from "drizzle-orm";
import type PgBoss from "pg-boss";
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import type { Db } from "@/lib/db/client";
import { outboundDeliveries, webhookEndpoints } from "@/lib/db/schema";
import { appendEvent } from "@/lib/events/append";
import { createJobEngine } from "@/lib/jobs/engine";
import type { Sandbox } from "@/sandbox/server";
import { dbTargets, useTestDatabase } from "@/tests/support/db-targets";
import { newAdmin, receivedHooks } from "@/tests/support/outbound";
import { startTestSandbox } from "@/tests/support/sandbox";

import { attemptJob, attemptJobId, firstAttempt } from "./attempt.job";
import { deliverConsumer } from "./deliver.consumer";
import { createEndpoint } from "./manage";
import { JITTER } from "./schedule";

// The consumer's handler run as its worker runs it, on an engine with no workers: what it queues stays in the engine
// to be read back, and what reaches the receiver was sent by the handler itself.
describe.each(dbTargets())("the outgoing webhooks consumer on $name", (target) => {
  const database = useTestDatabase(target);
  let sandbox: Sandbox;
  let boss: PgBoss;
  beforeAll(async () => {
    sandbox = await startTestSandbox();
    boss = await createJobEngine(database, database.pool?.options.connectionString ?? null, [attemptJob, deliverConsumer.job], { work: false });
  });
  afterAll(async () => {
    await boss?.stop({ graceful: false, close: true, wait: true });
    await sandbox?.close();
  });

  const hooks = (name: string) => receivedHooks(sandbox, name);
  const consume = (jobs: { eventId: string; recipient: string }[]) =>
    deliverConsumer.job.start({ db: database.db, boss, log: () => undefined, signal: new AbortController().signal })(jobs);
  const delivery = async (endpointId: string) => {
    const [row] = await database.db.select().from(outboundDeliveries).where(eq(outboundDeliveries.endpointId, endpointId));
    if (!row) throw new Error(`no delivery to ${endpointId}`);
    return row;
  };
  const queuedJob = (data: Parameters<typeof attemptJobId>[0]) => boss.getJobById(attemptJob.queue, attemptJobId(data));

  async function endpoint(db: Db, name: string, query = "") {
    const made = await createEndpoint(db, await newAdmin(db), {
      url: `${sandbox.apiUrl}/sandbox/hooks/${name}${query}`,
      description: "",
      eventTypes: "all",
      enabled: true,
    });
    if (made.kind !== "created") throw new Error(made.kind);
    return made;
  }

  it("makes the first attempt itself for an endpoint that is not failing, and queues it for one that is", async () => {
    const db = database.db;
    const [goodName, failingName] = [`now-${randomBytes(3).toString("hex")}`, `later-${randomBytes(3).toString("hex")}`];
    const good = await endpoint(db, goodName);
    const failing = await endpoint(db, failingName);
    await db
      .update(webhookEndpoints)
      .set({ failingSince: new Date("2026-11-27T09:00:00Z") })
      .where(eq(webhookEndpoints.id, failing.endpoint.id));
    const event = await db.transaction((tx) => appendEvent(tx, "payment.received", { uuid: "u-c1", actualAmount: "5000.00" }));

    expect(
      await consume([
        { eventId: event.id, recipient: good.endpoint.id },
        { eventId: event.id, recipient: failing.endpoint.id },
      ]),
    ).toBeUndefined();

    // The good endpoint has it already, signed, and its delivery says so; no attempt job was queued for it.
    const [got] = await hooks(goodName);
    expect(got?.headers["webhook-id"]).toBe(event.id);
    expect(new Webhook(good.secret).verify(got?.body ?? "", got?.headers ?? {})).toEqual(event);
    const sent = await delivery(good.endpoint.id);
    expect(sent).toMatchObject({ status: "delivered", attempts: 1, lastStatusCode: 200 });
    expect(await queuedJob(firstAttempt({ deliveryId: sent.id, round: 0 }))).toBeNull();

    // The failing endpoint got nothing from the consumer: its first attempt waits in the attempt queue, due now.
    expect(await hooks(failingName)).toEqual([]);
    const waiting = await delivery(failing.endpoint.id);
    expect(waiting).toMatchObject({ status: "pending", attempts: 0 });
    const job = await queuedJob(firstAttempt({ deliveryId: waiting.id, round: 0 }));
    expect(job?.state).toBe("created");
    expect(new Date(job?.startAfter ?? 0).getTime()).toBeLessThanOrEqual(Date.now());
  });

  it("queues the attempt after its own failed one at 5 s, and a repeat of the job sends nothing again", async () => {
    const db = database.db;
    const name = `retry-${randomBytes(3).toString("hex")}`;
    const made = await endpoint(db, name, "?status=500");
    const event = await db.transaction((tx) => appendEvent(tx, "request.declined", { requestId: "77", tag: "ada" }));
    const job = { eventId: event.id, recipient: made.endpoint.id };

    await consume([job]);
    const first = await delivery(made.endpoint.id);
    expect(first).toMatchObject({ status: "pending", attempts: 1, lastStatusCode: 500 });
    if (!first.lastAttemptAt || !first.nextAttemptAt) throw new Error("the attempt was not recorded");
    const second = await queuedJob({ deliveryId: first.id, round: 0, attempt: 2, deferred: 0 });
    expect(new Date(second?.startAfter ?? 0).getTime()).toBe(first.nextAttemptAt.getTime());
    const waitMs = first.nextAttemptAt.getTime() - first.lastAttemptAt.getTime();
    expect(waitMs).toBeGreaterThanOrEqual(5_000 * (1 - JITTER));
    expect(waitMs).toBeLessThanOrEqual(5_000 * (1 + JITTER));

    // Its process died after recording the attempt, before queueing the next one and completing the job: the job
    // runs again, the receiver hears once all the same, and the next attempt is queued at the time the delivery shows.
    await database.db.execute(sql`delete from pgboss.job where id = ${second?.id ?? ""}::uuid`);
    await consume([job]);
    expect((await hooks(name)).map((r) => [r.status, r.headers["webhook-id"]])).toEqual([[500, event.id]]);
    expect(await delivery(made.endpoint.id)).toMatchObject({ id: first.id, attempts: 1 });
    const again = await queuedJob({ deliveryId: first.id, round: 0, attempt: 2, deferred: 0 });
    expect(again?.state).toBe("created");
    expect(new Date(again?.startAfter ?? 0).getTime()).toBe(first.nextAttemptAt.getTime());
    // Nor is its first attempt queued again behind it.
    expect(await queuedJob(firstAttempt({ deliveryId: first.id, round: 0 }))).toBeNull();
  });
});
