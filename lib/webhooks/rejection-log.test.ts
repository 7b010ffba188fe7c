import { sql } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";

import { queryRows, type Db } from "@/lib/db/client";
import { dbTargets, useTestDatabase } from "@/tests/support/db-targets";

import { createRejectionLog, foldKey, type Rejection } from "./rejection-log";

// docs/architecture.md on a real database: a flood of forged deliveries leaves a few dozen rows and a count.

const HOUR = 3_600_000;
const T0 = Date.UTC(2030, 0, 1, 10, 5);
const forged = (remoteAddr: string | null): Rejection => ({ outcome: "bad_signature", httpStatus: 401, remoteAddr, detail: "signature mismatch" });

interface Row {
  outcome: string;
  remote_addr: string | null;
  body: string | null;
  count: number;
  fold_key: string | null;
  detail: string | null;
  received_ms: number;
}

describe.each(dbTargets())("rejection log on $name", (target) => {
  const database = useTestDatabase(target);
  let now = T0;
  const lines: string[] = [];
  const make = (options: Parameters<typeof createRejectionLog>[1] = {}) =>
    createRejectionLog(database.db, { now: () => now, log: (l) => lines.push(l), flushMs: 60_000, ...options });

  beforeEach(async () => {
    await database.db.execute(sql`delete from webhook_deliveries`);
    now = T0;
    lines.length = 0;
  });

  const rows = () =>
    queryRows<Row>(
      database.db,
      sql`select outcome, remote_addr, body, count, fold_key, detail, (extract(epoch from received_at) * 1000)::float8 as received_ms from webhook_deliveries order by id`,
    );
  const sum = (rs: Row[]) => rs.reduce((n, r) => n + r.count, 0);

  it("keeps 500 forged deliveries from one address as 30 rows and one folded row, counts summing to 500, no body", async () => {
    const log = make();
    for (let i = 0; i < 500; i++) {
      now = T0 + i * 1_000;
      log.note(forged("203.0.113.9"));
    }
    await log.flush();
    const all = await rows();
    expect(all.length).toBeLessThanOrEqual(31);
    expect(all).toHaveLength(31);
    expect(sum(all)).toBe(500);
    expect(all.every((r) => r.body === null && r.outcome === "bad_signature" && r.remote_addr === "203.0.113.9")).toBe(true);
    const folded = all.filter((r) => r.fold_key !== null);
    expect(folded).toHaveLength(1);
    expect(folded[0]).toMatchObject({
      count: 470,
      fold_key: "bad_signature|203.0.113.9|2030-01-01T10:00:00.000Z",
      detail: null,
    });
    expect(folded[0]?.received_ms).toBe(T0 + 499_000);
    expect(lines).toEqual([]);
  });

  it("adds later flushes of the same source and hour to the same row, and starts afresh the next hour", async () => {
    const log = make();
    for (let i = 0; i < 40; i++) log.note(forged("198.51.100.7"));
    await log.flush();
    for (let i = 0; i < 60; i++) log.note(forged("198.51.100.7"));
    await log.flush();
    let folded = (await rows()).filter((r) => r.fold_key !== null);
    expect(folded.map((r) => [r.count, r.detail])).toEqual([[70, null]]);

    now = T0 + HOUR;
    for (let i = 0; i < 35; i++) log.note(forged("198.51.100.7"));
    await log.flush();
    const all = await rows();
    expect(sum(all)).toBe(135);
    expect(all.filter((r) => r.fold_key === null)).toHaveLength(60);
    folded = all.filter((r) => r.fold_key !== null);
    expect(folded.map((r) => [r.fold_key, r.count])).toEqual([
      [foldKey("bad_signature", "198.51.100.7", T0), 70],
      [foldKey("bad_signature", "198.51.100.7", T0 + HOUR), 5],
    ]);
  });

  it("folds each outcome separately and two processes' folds into one row", async () => {
    const a = make();
    const b = make();
    for (let i = 0; i < 35; i++) {
      a.note(forged("192.0.2.1"));
      b.note(forged("192.0.2.1"));
      a.note({ outcome: "too_large", httpStatus: 413, remoteAddr: "192.0.2.1", detail: "body over 65536 bytes" });
    }
    await Promise.all([a.flush(), b.flush()]);
    const folded = (await rows()).filter((r) => r.fold_key !== null);
    expect(folded.map((r) => [r.outcome, r.count]).sort()).toEqual([
      ["bad_signature", 10],
      ["too_large", 5],
    ]);
    expect(sum(await rows())).toBe(105);
  });

  it("bounds the sources it tracks: past the cap they share one 'other' row", async () => {
    const log = make({ maxSources: 3, rowsPerSourceHour: 2 });
    for (let s = 0; s < 10; s++) for (let i = 0; i < 4; i++) log.note(forged(`203.0.113.${s}`));
    await log.flush();
    const all = await rows();
    expect(sum(all)).toBe(40);
    // Three tracked sources: 2 rows + 1 fold each; everyone else: 2 rows, then one shared fold.
    expect(all.filter((r) => r.fold_key === null)).toHaveLength(3 * 2 + 2);
    const other = all.find((r) => r.fold_key === foldKey("bad_signature", "other", T0));
    expect(other).toMatchObject({ remote_addr: null, count: 7 * 4 - 2 });
    expect(other?.detail).toBeNull();
  });

  it("caps ordinary rows per hour over all sources", async () => {
    const log = make({ rowsPerHour: 5 });
    for (let s = 0; s < 20; s++) log.note(forged(`198.51.100.${s}`));
    await log.flush();
    const all = await rows();
    expect(all.filter((r) => r.fold_key === null)).toHaveLength(5);
    expect(sum(all)).toBe(20);
  });

  it("writes folded counts on its own after flushMs", async () => {
    const log = make({ rowsPerSourceHour: 0, flushMs: 10 });
    for (let i = 0; i < 12; i++) log.note(forged("192.0.2.77"));
    await expect.poll(async () => sum(await rows()), { timeout: 5_000, interval: 20 }).toBe(12);
  });

  it("flushes as soon as flushAtFolds rows are waiting", async () => {
    const log = make({ rowsPerSourceHour: 0, flushAtFolds: 3 });
    for (let s = 0; s < 3; s++) log.note(forged(`192.0.2.${s}`));
    // No flush() and a one-minute timer: only the size threshold can have written these.
    await expect.poll(async () => (await rows()).length, { timeout: 5_000, interval: 20 }).toBe(3);
  });
});

describe("rejection log without a working database", () => {
  const PHONE = "+2348012345678";

  /** A Db whose inserts fail the way drizzle does: a wrapper quoting the parameters, the driver's error as cause. */
  function failingDb(): Db {
    const fail = () => {
      const cause = Object.assign(new Error("connection refused"), { code: "ECONNREFUSED" });
      return Promise.reject(new Error(`Failed query: insert into webhook_deliveries\nparams: ${PHONE}`, { cause }));
    };
    const builder = { values: () => Object.assign(fail(), { onConflictDoUpdate: fail }) };
    // Swallow the rejection of the unused promise made for the chained call.
    return {
      insert: () => ({
        values: () => {
          const p = builder.values();
          p.catch(() => undefined);
          return p;
        },
      }),
    } as unknown as Db;
  }

  it("never throws or waits, and logs one safe line per failed write", async () => {
    const lines: string[] = [];
    const log = createRejectionLog(failingDb(), { log: (l) => lines.push(l), rowsPerSourceHour: 2, flushMs: 60_000 });
    for (let i = 0; i < 5; i++) expect(log.note(forged(PHONE))).toBeUndefined();
    await log.flush();
    expect(lines).toHaveLength(3);
    expect(lines.join("\n")).not.toContain(PHONE);
    expect(lines.at(-1)).toBe("[webhook] could not log 3 folded rejected deliveries: Error [ECONNREFUSED]: connection refused");
  });
});

describe("rejection log write concurrency", () => {
  it("has at most writeConcurrency inserts in flight and answers note() at once", async () => {
    let inFlight = 0;
    let most = 0;
    const pending: (() => void)[] = [];
    const db = {
      insert: () => ({
        values: () => {
          inFlight += 1;
          most = Math.max(most, inFlight);
          return new Promise<void>((resolve) =>
            pending.push(() => {
              inFlight -= 1;
              resolve();
            }),
          );
        },
      }),
    } as unknown as Db;
    const log = createRejectionLog(db, { writeConcurrency: 2, log: () => undefined });
    for (let s = 0; s < 10; s++) log.note(forged(`192.0.2.${s}`));
    expect(inFlight).toBe(2);
    const flushed = log.flush();
    while (pending.length > 0 || inFlight > 0) {
      pending.shift()?.();
      await new Promise<void>((resolve) => setImmediate(resolve));
    }
    await flushed;
    expect(most).toBe(2);
  });
});
