import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { publish, subscribe, type LiveEvent } from "@/lib/live/bus";
import { LIVE_CHANNEL, startPgTransport } from "@/lib/live/pg-transport";
import { createTempPostgres } from "@/tests/db-targets";
import { waitFor } from "@/tests/sandbox-harness";

import { advisoryLeadership } from "./leader";

const base = process.env.TEST_DATABASE_URL;

// Postgres-only behaviour; CI always sets TEST_DATABASE_URL (lib/db/db.test.ts fails CI without it).
describe.runIf(base)("on Postgres", () => {
  let url = "";
  let drop: () => Promise<void> = async () => {};

  beforeAll(async () => {
    const temp = await createTempPostgres(base ?? "");
    url = temp.url;
    drop = temp.drop;
  });
  afterAll(async () => drop());

  it("gives the reconciler lock to one instance at a time, and hands it over when the holder goes", async () => {
    const a = advisoryLeadership(url, 4242);
    const b = advisoryLeadership(url, 4242);
    try {
      expect(await a.isLeader()).toBe(true);
      expect(await b.isLeader()).toBe(false);
      expect(await a.isLeader()).toBe(true);
      await a.stop();
      // b asks at most once a second; it takes over on its next try.
      await waitFor("b to take the lock", async () => ((await b.isLeader()) ? true : undefined), 5_000, 100);
      expect(await a.isLeader()).toBe(false);
    } finally {
      await a.stop();
      await b.stop();
    }
  });

  it("releases the lock when the holder's connection dies (a killed instance)", async () => {
    const a = advisoryLeadership(url, 4343);
    const b = advisoryLeadership(url, 4343);
    const killer = new pg.Client({ connectionString: url });
    await killer.connect();
    try {
      expect(await a.isLeader()).toBe(true);
      await killer.query("SELECT pg_terminate_backend(pid) FROM pg_locks WHERE locktype = 'advisory' AND objid = 4343");
      await waitFor("b to take the lock", async () => ((await b.isLeader()) ? true : undefined), 5_000, 100);
    } finally {
      await killer.end();
      await a.stop();
      await b.stop();
    }
  });

  it("carries live events over LISTEN/NOTIFY, including those another instance sends", async () => {
    const pool = new pg.Pool({ connectionString: url, max: 2 });
    const transport = startPgTransport(pool, url, () => {});
    const seen: LiveEvent[] = [];
    const unsubscribe = subscribe((e) => seen.push(e));
    try {
      await transport.ready;
      // Another instance's NOTIFY, sent on a connection of its own.
      const other = new pg.Client({ connectionString: url });
      await other.connect();
      await other.query("SELECT pg_notify($1, $2)", [LIVE_CHANNEL, JSON.stringify({ type: "payment.recorded", uuid: "u-1", requestId: null })]);
      await other.end();
      await waitFor("the other instance's event", () => (seen.some((e) => e.type === "payment.recorded") ? true : undefined));
      publish({ type: "balance.changed" });
      await waitFor("our own event back through NOTIFY", () => (seen.some((e) => e.type === "balance.changed") ? true : undefined));
      expect(seen.filter((e) => e.type === "balance.changed")).toHaveLength(1);

      // A burst in one turn of the event loop (sent as a few NOTIFYs): every event arrives, in
      // order, and the repeated balance.changed once.
      seen.length = 0;
      const uuids = Array.from({ length: 300 }, (_, i) => `burst-${i}-${"x".repeat(40)}`);
      for (const uuid of uuids) {
        publish({ type: "payment.recorded", uuid, requestId: null });
        publish({ type: "balance.changed" });
      }
      await waitFor("the burst", () => (seen.filter((e) => e.type === "payment.recorded").length === uuids.length ? true : undefined));
      expect(seen.flatMap((e) => (e.type === "payment.recorded" ? [e.uuid] : []))).toEqual(uuids);
      expect(seen.filter((e) => e.type === "balance.changed")).toHaveLength(1);
    } finally {
      unsubscribe();
      await transport.stop();
      await pool.end();
    }
  });
});
