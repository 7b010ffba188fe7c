import { spawn } from "node:child_process";
import path from "node:path";

import type PgBoss from "pg-boss";
import { sql } from "drizzle-orm";
import { afterEach, describe, expect, it } from "vitest";

import { queryRows, type Database } from "@/lib/db/client";
import { appendEvent } from "@/lib/events/append";
import { dispatchEvents, eventsDispatchJob } from "@/lib/events/dispatch.job";
import { createJobEngine, registerJobs } from "@/lib/jobs/engine";
import { dbTargets, useTestDatabase } from "@/tests/support/db-targets";
import { bareEnv } from "@/tests/support/processes";
import { actsOf, makeActsTable, testConsumer } from "@/tests/support/test-consumer";
import { waitFor } from "@/tests/support/wait-for";

const root = path.resolve(__dirname, "..", "..");
const urlOf = (database: Database): string | null => (database.pool ? (database.pool.options.connectionString ?? null) : null);

/** Jobs of the test consumer's queue not yet finished (queued, retrying or running). */
async function unfinished(database: Database): Promise<number> {
  const [row] = await queryRows<{ n: number }>(
    database.db,
    sql`select count(*)::int as n from pgboss.job where name = 'consumer-test' and state in ('created', 'retry', 'active')`,
  );
  return Number(row?.n ?? 0);
}

// Durable consumers are fed from the events table (docs/architecture.md "Events"): each acts once per event and
// recipient, however many instances dispatch and work, and whatever moment a process is killed at.
describe.each(dbTargets())("durable event consumers on $name", (target) => {
  const database = useTestDatabase(target, { perTest: true });
  const engines: PgBoss[] = [];
  afterEach(async () => {
    for (const boss of engines.splice(0)) await boss.stop({ graceful: false, wait: true, close: true });
  });

  /** An instance: its own engine working the dispatcher and the consumer. */
  async function instance(): Promise<void> {
    const consumer = testConsumer(database.db);
    const jobs = [eventsDispatchJob([consumer]), consumer.job];
    const boss = await createJobEngine(database, urlOf(database), jobs);
    engines.push(boss);
    await registerJobs(boss, jobs, { db: database.db, log: () => undefined, signal: new AbortController().signal });
  }

  it("acts once per (event, recipient) with two instances, and not at all for a change that rolled back", async () => {
    await makeActsTable(database.db);
    await instance();
    await instance();
    const committed: string[] = [];
    for (let i = 0; i < 20; i++) {
      if (i % 5 === 4) {
        await database.db
          .transaction(async (tx) => {
            await appendEvent(tx, "payer.updated", { tag: `rolled-back-${i}` });
            throw new Error("the change failed");
          })
          .catch(() => undefined);
        continue;
      }
      committed.push((await database.db.transaction((tx) => appendEvent(tx, "payer.updated", { tag: `p-${i}` }))).id);
    }
    // An event no consumer wants is dispatched and acted on by none.
    await database.db.transaction((tx) => appendEvent(tx, "campaign.started", { id: "c" }));
    await waitFor("every act", async () => ((await actsOf(database.db)).length === committed.length * 2 ? true : undefined), 30_000, 100);
    // A dispatch pass cut off before it marked its events queues them again: under the same job ids, so nothing new.
    await database.db.execute(sql`update events set dispatched_at = null`);
    const consumer = testConsumer(database.db);
    expect(await dispatchEvents(database.db, engines[0] as PgBoss, [consumer])).toBe(committed.length + 1);
    await waitFor("the queue drained", async () => ((await unfinished(database)) === 0 ? true : undefined), 30_000, 100);
    const acts = await actsOf(database.db);
    expect(acts.map((a) => `${a.event_id}:${a.recipient}:${a.n}`)).toEqual(committed.sort().flatMap((id) => [`${id}:alice:1`, `${id}:bola:1`]));
  });

  it("commits a pass's jobs and its mark together: a pass whose mark fails queues nothing, and the next queues all", async () => {
    const consumer = testConsumer(database.db);
    // An engine that only queues: the jobs a pass inserts stay where the test can count them.
    const boss = await createJobEngine(database, urlOf(database), [consumer.job], { work: false });
    engines.push(boss);
    for (const tag of ["a", "b", "c"]) await database.db.transaction((tx) => appendEvent(tx, "payer.updated", { tag }));
    // The mark is the pass's last statement, after its jobs' insert: refused here, as a pass cut off there would be.
    await database.db.execute(sql`create function refuse_mark() returns trigger language plpgsql as $$
      begin raise exception 'mark refused'; end $$`);
    await database.db.execute(sql`create trigger refuse_mark before update of dispatched_at on events for each row execute function refuse_mark()`);
    const failed = await dispatchEvents(database.db, boss, [consumer]).then(
      () => null,
      (error: unknown) => error,
    );
    expect(failed instanceof Error ? String(failed.cause) : failed).toMatch(/mark refused/);
    expect(await unfinished(database)).toBe(0);
    const [left] = await queryRows<{ n: number }>(database.db, sql`select count(*)::int as n from events where dispatched_at is null`);
    expect(left?.n).toBe(3);

    await database.db.execute(sql`drop trigger refuse_mark on events`);
    expect(await dispatchEvents(database.db, boss, [consumer])).toBe(3);
    expect(await unfinished(database)).toBe(6);
  });

  // A killed process is another process: the embedded database opens in one only, so these run on Postgres.
  it.runIf(target.name === "postgres").each(["committed", "dispatched", "acting"])(
    "acts once after a SIGKILL %s",
    async (moment) => {
      await makeActsTable(database.db);
      const child = spawn(process.execPath, ["--conditions=react-server", "--import", "tsx", "tests/events/kill-child.ts"], {
        cwd: root,
        env: bareEnv({ KILL_DATABASE_URL: urlOf(database) ?? "", KILL_AT: moment }),
        stdio: ["ignore", "pipe", "pipe"],
      });
      let out = "";
      let err = "";
      child.stdout.on("data", (chunk: Buffer) => (out += chunk.toString()));
      child.stderr.on("data", (chunk: Buffer) => (err += chunk.toString()));
      const signal = await new Promise<NodeJS.Signals | null>((resolve) => child.on("exit", (_code, s) => resolve(s)));
      expect(signal, err).toBe("SIGKILL");
      expect(out).toContain("dying");
      const eventId = out.split("\n")[0] ?? "";
      expect(eventId).toMatch(/^evt_/);
      await instance();
      await waitFor("the acts", async () => ((await actsOf(database.db)).length === 2 ? true : undefined), 45_000, 100);
      await waitFor("the queue drained", async () => ((await unfinished(database)) === 0 ? true : undefined), 45_000, 100);
      expect(await actsOf(database.db)).toEqual([
        { event_id: eventId, recipient: "alice", n: 1 },
        { event_id: eventId, recipient: "bola", n: 1 },
      ]);
    },
    90_000,
  );
});
