import type PgBoss from "pg-boss";
import { sql } from "drizzle-orm";
import { PgDialect } from "drizzle-orm/pg-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";

import { queryRows } from "@/lib/db/client";
import { dbTargets, useTestDatabase } from "@/tests/support/db-targets";

import { defineJob } from "./define";
import { createJobEngine } from "./engine";
import { derivedJobId } from "./ids";
import { bossStatement, jobsDb } from "./in-transaction";

const txJob = defineJob({
  queue: "in-transaction-test",
  payload: z.object({ n: z.number() }),
  policy: { policy: "standard", retryLimit: 0, expireInSeconds: 60 },
  work: { workers: 1, batchSize: 1, pollingIntervalSeconds: 1 },
  handler: () => async () => undefined,
});

describe("pg-boss's statements as ours", () => {
  it("keeps each $n's value in its place, a repeated one twice, and an array as one value", () => {
    const built = new PgDialect().sqlToQuery(bossStatement("select $2::int, $1 || $2, $3::uuid[]", ["a", 7, ["x", "y"]]));
    expect(built.sql).toBe("select $1::int, $2 || $3, $4::uuid[]");
    expect(built.params).toEqual([7, "a", 7, ["x", "y"]]);
  });
});

describe.each(dbTargets())("jobs queued in a transaction on $name", (target) => {
  const database = useTestDatabase(target);
  let boss: PgBoss;
  beforeAll(async () => {
    boss = await createJobEngine(database, database.pool?.options.connectionString ?? null, [txJob], { work: false });
  });
  afterAll(async () => {
    await boss?.stop({ graceful: false, close: true, wait: true });
  });

  it("commit with the transaction's rows, and are gone with them when it rolls back", async () => {
    const db = database.db;
    await db.execute(sql`create table if not exists in_tx_rows (n int primary key)`);
    const [kept, dropped] = [derivedJobId(txJob.queue, `kept-${target.name}`), derivedJobId(txJob.queue, `dropped-${target.name}`)];
    await db.transaction(async (tx) => {
      await tx.execute(sql`insert into in_tx_rows (n) values (1)`);
      await boss.insert([{ id: kept, name: txJob.queue, data: { n: 1 } }], { db: jobsDb(tx) });
    });
    await expect(
      db.transaction(async (tx) => {
        await tx.execute(sql`insert into in_tx_rows (n) values (2)`);
        await boss.insert([{ id: dropped, name: txJob.queue, data: { n: 2 } }], { db: jobsDb(tx) });
        throw new Error("the change failed after its job was queued");
      }),
    ).rejects.toThrow("the change failed");
    expect((await boss.getJobById(txJob.queue, kept))?.data).toEqual({ n: 1 });
    expect(await boss.getJobById(txJob.queue, dropped)).toBeNull();
    expect(await queryRows<{ n: number }>(db, sql`select n from in_tx_rows order by n`)).toEqual([{ n: 1 }]);
  });
});
