import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { publish, subscribe, type LiveEvent } from "@/lib/live/bus";
import { LIVE_CHANNEL, startPgTransport } from "@/lib/live/pg-transport";
import { createTempPostgres } from "@/tests/support/db-targets";
import { waitFor } from "@/tests/support/wait-for";

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
      await other.query("SELECT pg_notify($1, $2)", [LIVE_CHANNEL, JSON.stringify({ type: "payment.recorded", uuid: "u-1" })]);
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
        publish({ type: "payment.recorded", uuid });
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
