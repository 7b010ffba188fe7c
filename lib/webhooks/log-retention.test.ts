import { sql } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";

import { queryRows, type Db } from "@/lib/db/client";
import { dbTargets, useTestDatabase } from "@/tests/support/db-targets";

import { pruneDeliveryLog } from "./log-retention";

// docs/architecture.md: DELIVERY_LOG_DAYS of rows are kept; older ones go in short batches.

const NOW = new Date(Date.UTC(2030, 5, 1, 12, 0));
const DAY = 86_400_000;

describe.each(dbTargets())("pruneDeliveryLog on $name", (target) => {
  const database = useTestDatabase(target);

  beforeEach(async () => {
    await database.db.execute(sql`delete from webhook_deliveries`);
  });

  /** `n` rows received `daysAgo` days before NOW (one millisecond apart, going back). */
  const rowsAt = (n: number, daysAgo: number) =>
    database.db.execute(
      sql`insert into webhook_deliveries (outcome, http_status, received_at)
          select 'bad_signature', 401, ${new Date(NOW.getTime() - daysAgo * DAY).toISOString()}::timestamptz - make_interval(secs => g / 1000.0)
          from generate_series(0, ${n - 1}) as g`,
    );
  const remaining = async () => (await queryRows<{ n: number }>(database.db, sql`select count(*)::int as n from webhook_deliveries`))[0]?.n;

  it("deletes every row older than the retention in batches, keeping the rest", async () => {
    await rowsAt(12_000, 91);
    await rowsAt(7, 89);
    await rowsAt(3, 0);
    let statements = 0;
    // Count the statements the prune sends: each batch is one.
    const counting = new Proxy(database.db, {
      get(db, prop, receiver) {
        const value: unknown = Reflect.get(db, prop, receiver);
        if (prop === "execute" && typeof value === "function") {
          return (...args: unknown[]) => {
            statements += 1;
            return (value as (...a: unknown[]) => unknown).apply(db, args);
          };
        }
        return value;
      },
    }) as Db;
    expect(await pruneDeliveryLog(counting, 90, NOW, 5_000)).toBe(12_000);
    expect(statements).toBe(3);
    expect(await remaining()).toBe(10);
    expect(await pruneDeliveryLog(database.db, 90, NOW)).toBe(0);
  });

  it("keeps a row exactly at the cutoff and drops one a millisecond older", async () => {
    const cutoff = new Date(NOW.getTime() - 30 * DAY);
    await database.db.execute(
      sql`insert into webhook_deliveries (outcome, http_status, received_at) values
          ('recorded', 200, ${cutoff.toISOString()}::timestamptz),
          ('recorded', 200, ${new Date(cutoff.getTime() - 1).toISOString()}::timestamptz)`,
    );
    expect(await pruneDeliveryLog(database.db, 30, NOW)).toBe(1);
    expect(await remaining()).toBe(1);
  });

  it("refuses a retention under one day", async () => {
    await expect(pruneDeliveryLog(database.db, 0, NOW)).rejects.toThrow(RangeError);
  });
});
