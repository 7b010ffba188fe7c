import { sql } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";

import { dbTargets, useTestDatabase } from "@/tests/support/db-targets";

import { backgroundShare, budgetSpent, spendServiceCall } from "./budget";

describe.each(dbTargets())("the shared service budget on $name", (target) => {
  const database = useTestDatabase(target);
  beforeEach(async () => {
    await database.db.execute(sql`delete from service_calls`);
  });

  it("gives background work at most two thirds, and people the rest", async () => {
    const { db } = database;
    expect(backgroundShare(90)).toBe(60);
    expect(backgroundShare(9)).toBe(6);
    for (let i = 0; i < 6; i++) expect(await spendServiceCall(db, "background", 9)).toEqual({ ok: true });
    const refused = await spendServiceCall(db, "background", 9);
    expect(refused.ok).toBe(false);
    if (!refused.ok) expect(refused.retryAfterMs).toBeGreaterThan(55_000);
    // A person at the form still gets through while background work is held back.
    for (let i = 0; i < 3; i++) expect(await spendServiceCall(db, "interactive", 9)).toEqual({ ok: true });
    expect((await spendServiceCall(db, "interactive", 9)).ok).toBe(false);
    expect(await budgetSpent(db)).toEqual({ interactive: 3, background: 6 });
  });

  it("frees a slot when the oldest call leaves the 60 s window", async () => {
    const { db } = database;
    await db.execute(
      sql`insert into service_calls (kind, at) values ('interactive', now() - interval '59.5 seconds'), ('interactive', now() - interval '10 seconds')`,
    );
    const refused = await spendServiceCall(db, "interactive", 2);
    expect(refused.ok).toBe(false);
    if (!refused.ok) expect(refused.retryAfterMs).toBeLessThanOrEqual(1_000);
    await db.execute(sql`update service_calls set at = now() - interval '61 seconds' where at < now() - interval '59 seconds'`);
    expect(await spendServiceCall(db, "interactive", 2)).toEqual({ ok: true });
  });

  it("never lets concurrent callers, on two connections, pass the limit together", async () => {
    // A second connection to the same database stands in for a second instance (Postgres only; PGlite has one).
    const second = target.name === "postgres" ? await database.reopen() : database;
    try {
      const verdicts = await Promise.all(
        Array.from({ length: 40 }, (_, i) => spendServiceCall((i % 2 === 0 ? database : second).db, i % 3 === 0 ? "background" : "interactive", 25)),
      );
      expect(verdicts.filter((v) => v.ok)).toHaveLength(25);
      const spent = await budgetSpent(database.db);
      expect(spent.interactive + spent.background).toBe(25);
      expect(spent.background).toBeLessThanOrEqual(backgroundShare(25));
    } finally {
      if (second !== database) await second.close();
    }
  });
});
