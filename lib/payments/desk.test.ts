import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";

import { fundRequests, payments } from "@/lib/db/schema";
import { dbTargets, useTestDatabase } from "@/tests/support/db-targets";

import { mondayOf } from "@/lib/client/time/zone";

import { deskTotals } from "./desk";

// Wednesday 2026-03-11, 00:30 in Lagos (23:30 UTC on the 10th): "today" began half an hour ago.
const NOW = new Date("2026-03-10T23:30:00Z");
let n = 0;

function payment(receivedAt: string, amount: string, fees = "1.00") {
  n += 1;
  // In kobo, so the fixture's settled amount is exact.
  const kobo = (naira: string) => Math.round(Number(naira) * 100);
  const settled = ((kobo(amount) - kobo(fees)) / 100).toFixed(2);
  return {
    uuid: `desk-${n}`,
    type: "peer-transfer.success",
    amount,
    actualAmount: amount,
    settledAmount: settled,
    fees,
    description: "desk",
    customerName: "Ada",
    customerTag: "ada",
    receivedAt: new Date(receivedAt),
  };
}

describe("the week a day is in", () => {
  it("starts on Monday", () => {
    expect(mondayOf("2026-03-11")).toBe("2026-03-09");
    expect(mondayOf("2026-03-09")).toBe("2026-03-09");
    expect(mondayOf("2026-03-15")).toBe("2026-03-09");
    expect(mondayOf("2026-03-01")).toBe("2026-02-23");
  });
});

describe.each(dbTargets())("the desk's totals on $name", (target) => {
  const database = useTestDatabase(target);
  beforeAll(async () => {
    await database.db.execute(sql`delete from payments`);
    await database.db.execute(sql`delete from payment_hour_totals`);
    await database.db.insert(payments).values([
      payment("2026-02-28T22:59:00Z", "1.00"), // 28 Feb in Lagos: last month
      payment("2026-02-28T23:10:00Z", "10.00"), // 1 Mar 00:10 in Lagos: this month
      payment("2026-03-08T22:59:00Z", "20.00"), // Sunday 8 Mar in Lagos: before this week
      payment("2026-03-09T10:00:00Z", "40.00"), // Monday: this week
      payment("2026-03-10T22:59:00Z", "80.00"), // Tuesday 23:59 in Lagos: not today
      payment("2026-03-10T23:05:00Z", "160.00", "2.50"), // Wednesday 00:05 in Lagos: today
    ]);
    await database.db.execute(sql`delete from fund_requests`);
    const request = (reference: string, status: "pending" | "accepted", amount: string) => ({ reference, tag: "ada", amount, description: "d", status });
    await database.db
      .insert(fundRequests)
      .values([request("desk-a", "pending", "15.50"), request("desk-b", "pending", "4.50"), request("desk-c", "accepted", "99.00")]);
  });

  it("counts today, this week and this month in Lagos days, and what is still asked for", async () => {
    const desk = await deskTotals(database.db, "Africa/Lagos", NOW);
    expect(desk.day).toBe("2026-03-11");
    expect(desk.today).toMatchObject({ count: 1, amount: "160.00", fees: "2.50", settled: "157.50", from: "2026-03-10T23:00:00.000Z" });
    expect(desk.week).toMatchObject({ count: 3, amount: "280.00", from: "2026-03-08T23:00:00.000Z" });
    expect(desk.month).toMatchObject({ count: 5, amount: "310.00", fees: "6.50", settled: "303.50", from: "2026-02-28T23:00:00.000Z" });
    expect(desk.outstanding).toEqual({ count: 2, amount: "20.00" });
  });

  it("moves the day with TIMEZONE: in UTC the same instant is still Tuesday", async () => {
    const desk = await deskTotals(database.db, "UTC", NOW);
    expect(desk.day).toBe("2026-03-10");
    expect(desk.today).toMatchObject({ count: 2, amount: "240.00" });
  });
});
