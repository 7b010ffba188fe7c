import { randomBytes } from "node:crypto";

import { sql } from "drizzle-orm";
import type PgBoss from "pg-boss";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { appendEvent } from "@/lib/events/append";
import { createJobEngine, registerJobs } from "@/lib/jobs/engine";
import type { Sandbox } from "@/sandbox/server";
import { dbTargets, useTestDatabase } from "@/tests/support/db-targets";
import { newAdmin, receivedHooks } from "@/tests/support/outbound";
import { startTestSandbox } from "@/tests/support/sandbox";
import { waitFor } from "@/tests/support/wait-for";

import { attemptJob, attemptJobId, queueAttempt } from "./attempt.job";
import { ensureDelivery, findDelivery } from "./deliveries";
import { createEndpoint } from "./manage";
import { JITTER, RETRY_DELAYS_MS } from "./schedule";

// The attempt job's handler run by pg-boss itself (its workers registered as the app registers them): what a failed
// attempt queues is read back from the engine, whose start_after is the clock the next attempt waits on.
describe.each(dbTargets())("the webhook attempt job on the job engine's clock on $name", (target) => {
  const database = useTestDatabase(target);
  let sandbox: Sandbox;
  let boss: PgBoss;
  beforeAll(async () => {
    sandbox = await startTestSandbox();
    boss = await createJobEngine(database, database.pool?.options.connectionString ?? null, [attemptJob]);
    await registerJobs(boss, [attemptJob], { db: database.db, log: () => undefined, signal: new AbortController().signal });
  });
  afterAll(async () => {
    await boss?.stop({ graceful: false, close: true, wait: true });
    await sandbox?.close();
  });

  const hooks = (name: string) => receivedHooks(sandbox, name);

  /** The attempt's job once the engine holds it (a worker queues it after the attempt before it failed). */
  const queued = (deliveryId: string, attempt: number) =>
    waitFor(
      `attempt ${attempt} of ${deliveryId} in the engine`,
      async () => (await boss.getJobById(attemptJob.queue, attemptJobId({ deliveryId, round: 0, attempt, deferred: 0 }))) ?? undefined,
      15_000,
      50,
    );

  /** The wait the engine will keep before the attempt after `attempt`: from that attempt's time to the job's start_after. */
  async function engineWait(deliveryId: string, attempt: number): Promise<{ jobId: string; waitMs: number }> {
    const job = await queued(deliveryId, attempt + 1);
    const row = await findDelivery(database.db, deliveryId);
    if (!row?.lastAttemptAt || !row.nextAttemptAt) throw new Error(`attempt ${attempt} was not recorded`);
    const startAfter = new Date(job.startAfter);
    // The engine's start time is the one the delivery shows as its next attempt.
    expect(startAfter.getTime()).toBe(row.nextAttemptAt.getTime());
    expect(row).toMatchObject({ status: "pending", attempts: attempt, lastStatusCode: 500 });
    return { jobId: job.id, waitMs: startAfter.getTime() - row.lastAttemptAt.getTime() };
  }

  const within = (waitMs: number, baseMs: number) => {
    expect(waitMs).toBeGreaterThanOrEqual(Math.floor(baseMs * (1 - JITTER)));
    expect(waitMs).toBeLessThanOrEqual(Math.ceil(baseMs * (1 + JITTER)));
  };

  it("queues the attempt after a 500 at 5 s (±10%) in the engine, and the one after that at 1 min (±10%)", async () => {
    const db = database.db;
    const name = `clock-${randomBytes(3).toString("hex")}`;
    const made = await createEndpoint(db, await newAdmin(db), {
      url: `${sandbox.apiUrl}/sandbox/hooks/${name}?status=500`,
      description: "",
      eventTypes: "all",
      enabled: true,
    });
    if (made.kind !== "created") throw new Error(made.kind);
    const event = await db.transaction((tx) => appendEvent(tx, "request.declined", { requestId: "42", tag: "ada" }));
    const delivery = await ensureDelivery(db, made.endpoint.id, event);
    await queueAttempt({ deliveryId: delivery.id, round: 0, attempt: 1 }, undefined, boss);

    const second = await engineWait(delivery.id, 1);
    expect(RETRY_DELAYS_MS[0]).toBe(5_000);
    within(second.waitMs, 5_000);

    // The engine's clock reaches attempt 2's start time (moved to now rather than waited for): a worker takes it, the
    // receiver answers 500 again, and attempt 3 is queued a minute on.
    await db.execute(sql`update pgboss.job set start_after = now() where id = ${second.jobId}::uuid`);
    const third = await engineWait(delivery.id, 2);
    expect(RETRY_DELAYS_MS[1]).toBe(60_000);
    within(third.waitMs, 60_000);

    const received = await hooks(name);
    expect(received.map((r) => [r.status, r.headers["webhook-id"]])).toEqual([
      [500, event.id],
      [500, event.id],
    ]);
  });
});
