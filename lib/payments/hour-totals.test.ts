import { count, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";

import { paymentHourTotals, payments } from "@/lib/db/schema";
import { dbTargets, useTestDatabase } from "@/tests/support/db-targets";

import { closeFinishedHours, settledByDay, totalsInRange } from "./hour-totals";

const DAY = 86_400_000;
// A fixed clock: 00:05 UTC, so the hour from 23:00 is not yet closed (payments stamped in it may still be committing).
const NOW = new Date("2026-03-10T00:05:00Z");
let n = 0;

function payment(receivedAt: Date, amount: string) {
  n += 1;
  return {
    uuid: `hour-totals-${n}`,
    type: "peer-transfer.success",
    amount,
    actualAmount: amount,
    settledAmount: amount,
    fees: "0.10",
    description: "hour totals",
    customerName: "Ada",
    customerTag: "ada",
    receivedAt,
  };
}

// Totals of finished hours are kept, so the payments page costs the same at any number of payments; what
// they answer must equal a plain sum over the rows, whatever the range.
describe.each(dbTargets())("payment hour totals on $name", (target) => {
  const database = useTestDatabase(target);
  beforeAll(async () => {
    const rows = [
      payment(new Date("2026-03-01T10:00:00Z"), "100.25"),
      payment(new Date("2026-03-01T23:00:00Z"), "0.75"),
      payment(new Date("2026-03-05T12:00:00Z"), "1000000.01"),
      payment(new Date("2026-03-09T23:59:00Z"), "5.00"),
      payment(new Date("2026-03-10T00:01:00Z"), "7.00"),
    ];
    await database.db.insert(payments).values(rows);
  });

  async function scanned(from?: Date, to?: Date) {
    const [row] = await database.db
      .select({ n: count(), amount: sql<string>`coalesce(sum(${payments.amount}), 0)::numeric(20,2)::text` })
      .from(payments)
      .where(sql`true ${from ? sql`and ${payments.receivedAt} >= ${from}` : sql``} ${to ? sql`and ${payments.receivedAt} < ${to}` : sql``}`);
    return { count: row?.n ?? 0, amount: row?.amount ?? "0.00" };
  }

  it("answers what a plain sum answers, for every range, and keeps only days that are over", async () => {
    const ranges: [Date | undefined, Date | undefined][] = [
      [undefined, undefined],
      [new Date("2026-03-01T00:00:00Z"), new Date("2026-03-02T00:00:00Z")],
      [new Date("2026-03-02T00:00:00Z"), undefined],
      [undefined, new Date("2026-03-06T00:00:00Z")],
      [new Date("2026-03-09T00:00:00Z"), new Date("2026-03-11T00:00:00Z")],
      [new Date("2026-03-10T00:00:00Z"), undefined],
    ];
    for (const [from, to] of ranges) {
      const kept = await totalsInRange(database.db, { from, to }, NOW);
      expect({ count: kept.count, amount: kept.amount }, `${from?.toISOString()} – ${to?.toISOString()}`).toEqual(await scanned(from, to));
    }
    const whole = await totalsInRange(database.db, {}, NOW);
    expect(whole).toEqual({ count: 5, amount: "1000113.01", fees: "0.50", settled: "1000113.01" });
    // Every hour from the first payment's to 22:00 on the 9th is kept, empty ones as zero rows; 23:00 is still open.
    const [hours] = await database.db
      .select({ n: count(), first: sql<string>`min(${paymentHourTotals.hour})::text`, last: sql<string>`max(${paymentHourTotals.hour})::text` })
      .from(paymentHourTotals);
    expect(hours?.n).toBe(8 * 24 + 12 + 1);
    expect(new Date(hours?.first ?? "").toISOString()).toBe("2026-03-01T10:00:00.000Z");
    expect(new Date(hours?.last ?? "").toISOString()).toBe("2026-03-09T22:00:00.000Z");
  });

  it("closes an hour once, later, and a payment in the open hour is summed live", async () => {
    const later = new Date(NOW.getTime() + DAY);
    await closeFinishedHours(database.db, later);
    await closeFinishedHours(database.db, later);
    const [{ n: rows } = { n: 0 }] = await database.db.select({ n: count() }).from(paymentHourTotals);
    // A day later, 24 more hours are over (not the one that ended 5 minutes before).
    expect(rows).toBe(8 * 24 + 12 + 1 + 24);
    // One in the open hour of yesterday (its day is part kept, part live) and one today.
    await database.db.insert(payments).values([payment(new Date("2026-03-10T23:30:00Z"), "1.00"), payment(new Date(later.getTime() - 60_000), "2.00")]);
    expect((await totalsInRange(database.db, {}, later)).amount).toBe("1000116.01");
    const chart = await settledByDay(database.db, 3, "UTC", later);
    expect(Object.fromEntries(chart)).toEqual({ "2026-03-09": "5.00", "2026-03-10": "8.00", "2026-03-11": "2.00" });
    // In Lagos (UTC+1) the same payments fall an hour later: 23:59 UTC on the 9th is the 10th there, 23:30 on the 10th the 11th.
    const lagos = await settledByDay(database.db, 3, "Africa/Lagos", later);
    expect(Object.fromEntries(lagos)).toEqual({ "2026-03-09": "0.00", "2026-03-10": "12.00", "2026-03-11": "3.00" });
  });
});
