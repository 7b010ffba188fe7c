import { sql } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";

import { dbTargets, useTestDatabase } from "@/tests/support/db-targets";

import {
  apiShare,
  backgroundPerSlice,
  backgroundShare,
  budgetSpent,
  othersPerSlice,
  publicShare,
  sendReserve,
  spendServiceCall,
  type BudgetClass,
} from "./budget";

describe("the budget's numbers (docs/architecture.md, the service budget)", () => {
  it("keeps max(5, 10 %) for sends, two thirds at most for background, and lets reads and background take a third of their room in any 10 s", () => {
    expect([sendReserve(30), sendReserve(90), sendReserve(200), sendReserve(3)]).toEqual([5, 9, 20, 2]);
    expect([backgroundShare(30), backgroundShare(90), backgroundShare(9)]).toEqual([20, 60, 4]);
    expect([othersPerSlice(30), othersPerSlice(90)]).toEqual([9, 27]);
    expect([backgroundPerSlice(30), backgroundPerSlice(90)]).toEqual([7, 20]);
  });

  it("gives api calls half the limit and pay pages a sixth, never into the send reserve and never none", () => {
    expect([apiShare(30), apiShare(90), apiShare(25), apiShare(200), apiShare(9), apiShare(6), apiShare(1)]).toEqual([15, 45, 12, 100, 4, 1, 1]);
    expect([publicShare(30), publicShare(90), publicShare(25), publicShare(200), publicShare(6), publicShare(5), publicShare(3)]).toEqual([
      5, 15, 4, 33, 1, 1, 1,
    ]);
  });
});

describe.each(dbTargets())("the shared service budget on $name", (target) => {
  const database = useTestDatabase(target);
  beforeEach(async () => {
    await database.db.execute(sql`delete from service_calls`);
  });

  /** `count` calls of `budgetClass` made `secondsAgo` seconds ago (older than a slice, so only the minute counts). */
  const spentEarlier = (budgetClass: BudgetClass, count: number, secondsAgo: number) =>
    database.db.execute(
      sql`insert into service_calls (kind, at) select ${budgetClass}, now() - make_interval(secs => ${secondsAgo}) from generate_series(1, ${count})`,
    );

  it("refuses reads and background once only the send reserve is left, while sends still get in up to the limit", async () => {
    const { db } = database;
    await spentEarlier("read", 25, 20);
    const read = await spendServiceCall(db, "read", 30);
    expect(read.ok).toBe(false);
    // The oldest read leaves the window 40 s from now.
    if (!read.ok) expect(read.retryAfterMs).toBeGreaterThan(35_000);
    expect((await spendServiceCall(db, "background", 30)).ok).toBe(false);
    for (let i = 0; i < 5; i++) expect(await spendServiceCall(db, "send", 30)).toEqual({ ok: true });
    const sixth = await spendServiceCall(db, "send", 30);
    expect(sixth.ok).toBe(false);
    expect(await budgetSpent(db)).toEqual({ send: 5, api: 0, read: 25, background: 0, public: 0 });
  });

  it("counts sends against reads: what sends took is not there for reads", async () => {
    const { db } = database;
    await spentEarlier("send", 20, 30);
    await spentEarlier("read", 4, 20);
    expect(await spendServiceCall(db, "read", 30)).toEqual({ ok: true });
    expect((await spendServiceCall(db, "read", 30)).ok).toBe(false);
    expect(await spendServiceCall(db, "send", 30)).toEqual({ ok: true });
  });

  it("holds background work to two thirds of the limit, and reads still find room beside it", async () => {
    const { db } = database;
    await spentEarlier("background", 20, 30);
    const refused = await spendServiceCall(db, "background", 30);
    expect(refused.ok).toBe(false);
    if (!refused.ok) expect(refused.retryAfterMs).toBeGreaterThan(25_000);
    expect(await spendServiceCall(db, "read", 30)).toEqual({ ok: true });
    expect(await spendServiceCall(db, "send", 30)).toEqual({ ok: true });
    expect(await budgetSpent(db)).toEqual({ send: 1, api: 0, read: 1, background: 20, public: 0 });
  });

  it("spreads reads and background over the minute: a third of their room in any 10 s, never holding back a send", async () => {
    const { db } = database;
    for (let i = 0; i < othersPerSlice(30); i++) expect(await spendServiceCall(db, i % 2 === 0 ? "read" : "background", 30)).toEqual({ ok: true });
    const paced = await spendServiceCall(db, "read", 30);
    expect(paced.ok).toBe(false);
    if (!paced.ok) expect(paced.retryAfterMs).toBeLessThanOrEqual(10_000);
    expect(await spendServiceCall(db, "send", 30)).toEqual({ ok: true });
    await db.execute(sql`update service_calls set at = at - interval '11 seconds' where kind <> 'send'`);
    expect(await spendServiceCall(db, "read", 30)).toEqual({ ok: true });
  });

  it("never lets background take a whole 10 s slice: a running campaign leaves people's reads room", async () => {
    const { db } = database;
    for (let i = 0; i < backgroundPerSlice(90); i++) expect(await spendServiceCall(db, "background", 90)).toEqual({ ok: true });
    expect((await spendServiceCall(db, "background", 90)).ok).toBe(false);
    for (let i = backgroundPerSlice(90); i < othersPerSlice(90); i++) expect(await spendServiceCall(db, "read", 90)).toEqual({ ok: true });
  });

  it("admits a background call with a hold only while that many background slots stay free, in the minute and in the slice", async () => {
    const { db } = database;
    // Limit 30: background may hold 20 a minute and 7 in any 10 s.
    await spentEarlier("background", 14, 30);
    expect((await spendServiceCall(db, "background", 30, { window: 6, slice: 0 })).ok).toBe(false);
    expect(await spendServiceCall(db, "background", 30, { window: 5, slice: 0 })).toEqual({ ok: true });
    await db.execute(sql`delete from service_calls`);
    for (let i = 0; i < 4; i++) expect(await spendServiceCall(db, "background", 30)).toEqual({ ok: true });
    const held = await spendServiceCall(db, "background", 30, { window: 0, slice: 3 });
    expect(held.ok).toBe(false);
    if (!held.ok) expect(held.retryAfterMs).toBeLessThanOrEqual(10_000);
    // What the hold kept free is there for the work it was kept for.
    for (let i = 0; i < 3; i++) expect(await spendServiceCall(db, "background", 30)).toEqual({ ok: true });
    // A hold as large as the share still leaves the caller one slot of its own in a quiet minute.
    await db.execute(sql`delete from service_calls`);
    expect(await spendServiceCall(db, "background", 30, { window: 99, slice: 99 })).toEqual({ ok: true });
    expect((await spendServiceCall(db, "background", 30, { window: 99, slice: 99 })).ok).toBe(false);
  });

  it("holds api calls to half the limit, and a person's read and send still find room beside a key at its cap", async () => {
    const { db } = database;
    await spentEarlier("api", apiShare(30) - 1, 30);
    expect(await spendServiceCall(db, "api", 30)).toEqual({ ok: true });
    const refused = await spendServiceCall(db, "api", 30);
    expect(refused.ok).toBe(false);
    // Only the oldest api call leaving frees the key's next slot: about 30 s from now.
    if (!refused.ok) expect(refused.retryAfterMs).toBeGreaterThan(25_000);
    expect(await spendServiceCall(db, "read", 30)).toEqual({ ok: true });
    expect(await spendServiceCall(db, "send", 30)).toEqual({ ok: true });
    expect(await budgetSpent(db)).toEqual({ send: 1, api: 15, read: 1, background: 0, public: 0 });
  });

  it("never lets a key posting as fast as it can take the send reserve: five sends still get in at a limit of 30", async () => {
    const { db } = database;
    // People have read most of the minute: the key's half is not what stops it, the send reserve is.
    await spentEarlier("read", 20, 30);
    let admitted = 0;
    for (let i = 0; i < 30; i++) {
      const verdict = await spendServiceCall(db, "api", 30);
      if (!verdict.ok) break;
      admitted += 1;
    }
    expect(admitted).toBe(30 - sendReserve(30) - 20);
    expect((await spendServiceCall(db, "api", 30)).ok).toBe(false);
    for (let i = 0; i < sendReserve(30); i++) expect(await spendServiceCall(db, "send", 30)).toEqual({ ok: true });
    expect((await spendServiceCall(db, "send", 30)).ok).toBe(false);
  });

  it("lets api calls go before reads in the 10 s slice: they fill it for reads, reads never hold them back", async () => {
    const { db } = database;
    for (let i = 0; i < othersPerSlice(30); i++) expect(await spendServiceCall(db, "read", 30)).toEqual({ ok: true });
    expect((await spendServiceCall(db, "read", 30)).ok).toBe(false);
    expect(await spendServiceCall(db, "api", 30)).toEqual({ ok: true });
    await db.execute(sql`delete from service_calls`);
    for (let i = 0; i < othersPerSlice(30); i++) expect(await spendServiceCall(db, "api", 30)).toEqual({ ok: true });
    const paced = await spendServiceCall(db, "read", 30);
    expect(paced.ok).toBe(false);
    if (!paced.ok) expect(paced.retryAfterMs).toBeLessThanOrEqual(10_000);
    // Once the key's burst is out of the slice, the read has its room: the key's half leaves people the rest of the minute.
    await db.execute(sql`update service_calls set at = at - interval '11 seconds'`);
    expect(await spendServiceCall(db, "read", 30)).toEqual({ ok: true });
  });

  it("holds pay pages to a sixth of the limit, within the room reads and background have", async () => {
    const { db } = database;
    await spentEarlier("public", publicShare(30) - 1, 30);
    expect(await spendServiceCall(db, "public", 30)).toEqual({ ok: true });
    const refused = await spendServiceCall(db, "public", 30);
    expect(refused.ok).toBe(false);
    if (!refused.ok) expect(refused.retryAfterMs).toBeGreaterThan(25_000);
    expect(await spendServiceCall(db, "background", 30)).toEqual({ ok: true });
    expect(await spendServiceCall(db, "read", 30)).toEqual({ ok: true });
    expect(await budgetSpent(db)).toEqual({ send: 0, api: 0, read: 1, background: 1, public: 5 });
    // Like reads, pay pages never touch the send reserve and keep to the 10 s slice.
    await db.execute(sql`delete from service_calls`);
    await spentEarlier("read", 25, 30);
    expect((await spendServiceCall(db, "public", 30)).ok).toBe(false);
    await db.execute(sql`delete from service_calls`);
    for (let i = 0; i < othersPerSlice(30); i++) expect(await spendServiceCall(db, "read", 30)).toEqual({ ok: true });
    expect((await spendServiceCall(db, "public", 30)).ok).toBe(false);
  });

  it("frees a slot when the oldest call leaves the 60 s window", async () => {
    const { db } = database;
    await db.execute(sql`insert into service_calls (kind, at) values ('send', now() - interval '59.5 seconds'), ('send', now() - interval '10 seconds')`);
    const refused = await spendServiceCall(db, "send", 2);
    expect(refused.ok).toBe(false);
    if (!refused.ok) expect(refused.retryAfterMs).toBeLessThanOrEqual(1_000);
    await db.execute(sql`update service_calls set at = now() - interval '61 seconds' where at < now() - interval '59 seconds'`);
    expect(await spendServiceCall(db, "send", 2)).toEqual({ ok: true });
  });

  it("never lets concurrent callers of every class, on two connections, pass the limit together", async () => {
    // A second connection to the same database stands in for a second instance. Only Postgres shows the cross-instance
    // lock: PGlite is one process's one connection (no second instance can open it), so there the callers share it.
    const second = target.name === "postgres" ? await database.reopen() : database;
    try {
      const classes: BudgetClass[] = ["send", "api", "read", "background", "public", "send", "api", "send"];
      const verdicts = await Promise.all(
        Array.from({ length: 80 }, (_, i) => spendServiceCall((i % 2 === 0 ? database : second).db, classes[i % classes.length] ?? "send", 25)),
      );
      expect(verdicts.filter((v) => v.ok)).toHaveLength(25);
      const spent = await budgetSpent(database.db);
      expect(spent.send + spent.api + spent.read + spent.background + spent.public).toBe(25);
      expect(spent.api).toBeLessThanOrEqual(apiShare(25));
      expect(spent.public).toBeLessThanOrEqual(publicShare(25));
      expect(spent.read + spent.background + spent.public).toBeLessThanOrEqual(othersPerSlice(25));
      expect(spent.api + spent.read + spent.background + spent.public).toBeLessThanOrEqual(25 - sendReserve(25));
      expect(spent.send).toBeGreaterThanOrEqual(sendReserve(25));
    } finally {
      if (second !== database) await second.close();
    }
  });
});
