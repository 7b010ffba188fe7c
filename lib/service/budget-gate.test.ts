import { sql } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";

import { dbTargets, useTestDatabase } from "@/tests/support/db-targets";

import { budgetSpent, type BudgetClass } from "./budget";
import { budgetGate } from "./budget-gate";
import { ServiceError } from "./errors";

// The gate every service call passes (docs/architecture.md "The service budget"): a person's call waits briefly for a
// slot (a send 3 s, a read 2 s), a job's not at all; a refusal says the limit and when to try again.
describe.each(dbTargets())("the shared budget's gate on $name", (target) => {
  const database = useTestDatabase(target);
  beforeEach(async () => {
    await database.db.execute(sql`delete from service_calls`);
  });

  const gate = (budgetClass: BudgetClass, limit: number) =>
    budgetGate(
      async () => database.db,
      () => budgetClass,
      limit,
    );
  /** `count` calls of `budgetClass` made `secondsAgo` seconds ago. */
  const spentEarlier = (budgetClass: BudgetClass, count: number, secondsAgo: number) =>
    database.db.execute(
      sql`insert into service_calls (kind, at) select ${budgetClass}, now() - make_interval(secs => ${secondsAgo}) from generate_series(1, ${count})`,
    );
  const refusal = (call: Promise<void>) =>
    call.then(
      () => null,
      (error: unknown) => error,
    );

  it("refuses a job's call at once when there is no room, saying the limit and when to try again", async () => {
    // Background may take two thirds of 6 (4); the oldest leaves the window in about 1.5 s.
    await spentEarlier("background", 4, 58.5);
    const refused = await refusal(gate("background", 6)("fetch"));
    expect(refused).toBeInstanceOf(ServiceError);
    if (refused instanceof ServiceError) {
      expect(refused.budgetRefused).toBe(true);
      expect(refused.userMessage).toMatch(/^Fundboard is keeping under the service's limit of 6 calls a minute; try again in \d+ s/);
    }
    expect(await budgetSpent(database.db)).toMatchObject({ background: 4 });
  });

  it("lets a person's read wait for a slot that frees within its 2 s, then spends it", async () => {
    // Reads may take all but the send reserve of 6 (1); that one leaves the window in about 1 s.
    await spentEarlier("read", 1, 59);
    expect(await refusal(gate("read", 6)("fetch"))).toBeNull();
    expect(await budgetSpent(database.db)).toMatchObject({ read: 1 });
  });

  it("refuses a person's read without waiting when no slot frees within 2 s", async () => {
    await spentEarlier("read", 1, 20);
    const refused = await refusal(gate("read", 6)("fetch"));
    expect(refused).toBeInstanceOf(ServiceError);
    if (refused instanceof ServiceError) expect(refused.retryAfterMs ?? 0).toBeGreaterThan(30_000);
    expect(await budgetSpent(database.db)).toMatchObject({ read: 1 });
  });

  it("lets an API key's call wait for a slot that frees within its 2 s, as a person's read does", async () => {
    // Api calls may take half of 30 (15); the oldest leaves the window in about 1 s.
    await spentEarlier("api", 1, 59);
    await spentEarlier("api", 14, 20);
    expect(await refusal(gate("api", 30)("create"))).toBeNull();
    expect(await budgetSpent(database.db)).toMatchObject({ api: 15 });
  });

  it("refuses a pay page's call at once, as a job's, even when a slot frees within a second", async () => {
    // Pay pages may take a sixth of 30 (5); the oldest leaves the window in about 1 s.
    await spentEarlier("public", 1, 59);
    await spentEarlier("public", 4, 20);
    const refused = await refusal(gate("public", 30)("fetch"));
    expect(refused).toBeInstanceOf(ServiceError);
    if (refused instanceof ServiceError) expect(refused.budgetRefused).toBe(true);
    expect(await budgetSpent(database.db)).toMatchObject({ public: 5 });
  });
});
