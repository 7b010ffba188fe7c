import { sql } from "drizzle-orm";
import type PgBoss from "pg-boss";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { queryRows } from "@/lib/db/client";
import { createJobEngine } from "@/lib/jobs/engine";
import { dbTargets, useTestDatabase } from "@/tests/support/db-targets";
import { payload } from "@/tests/support/payloads";

import { createFollowUpQueue, followUpJob, followUpJobId } from "./follow-up.job";

// Deliveries answered together share one insert of their follow-up jobs (docs/architecture.md): each caller
// resolves only once its job is stored, one job per payment however often it is queued.
describe.each(dbTargets())("the follow-up queue on $name", (target) => {
  const database = useTestDatabase(target);
  let boss: PgBoss;
  beforeAll(async () => {
    boss = await createJobEngine(database, database.pool?.options.connectionString ?? null, [followUpJob]);
  });
  afterAll(async () => {
    await boss.stop({ graceful: false, close: true, wait: true });
  });

  const stored = async (uuids: string[]) =>
    (
      await queryRows<{ n: number }>(
        database.db,
        sql`select count(*)::int as n from pgboss.job where name = ${followUpJob.queue} and id::text in ${uuids.map(followUpJobId)}`,
      )
    )[0]?.n;

  it("stores 60 callers' jobs in a few inserts, each resolved after its job is stored, repeats adding none", async () => {
    const inserts: number[] = [];
    const queue = createFollowUpQueue(async (jobs) => {
      inserts.push(jobs.length);
      await boss.insert(jobs);
    });
    const uuids = Array.from({ length: 50 }, () => payload().uuid);
    const repeats = uuids.slice(0, 10);
    await Promise.all([...uuids, ...repeats].map((u) => queue.add(u)));
    expect(await stored(uuids)).toBe(50);
    expect(inserts.reduce((a, b) => a + b, 0)).toBe(50);
    expect(inserts.length).toBeLessThan(5);
    // Queued again later (a repeat delivery): still one job.
    await queue.add(uuids[0] ?? "");
    expect(await stored(uuids)).toBe(50);
  });

  it("rejects every caller of a failed insert, and the next callers get a fresh insert", async () => {
    let fail = true;
    const queue = createFollowUpQueue(async (jobs) => {
      if (fail) throw new Error("job table unavailable");
      await boss.insert(jobs);
    });
    const first = [payload().uuid, payload().uuid];
    const results = await Promise.allSettled(first.map((u) => queue.add(u)));
    expect(results.map((r) => r.status)).toEqual(["rejected", "rejected"]);
    expect(await stored(first)).toBe(0);
    fail = false;
    await queue.add(first[0] ?? "");
    expect(await stored(first)).toBe(1);
  });
});
