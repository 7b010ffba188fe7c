import { randomUUID } from "node:crypto";

import { sql } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";

import { recordBalanceReading } from "@/lib/balance/readings";
import type { BalanceView } from "@/lib/balance/view";
import { queryRows } from "@/lib/db/client";
import { recordPayment } from "@/lib/payments/record";
import { clientKey } from "@/lib/requests/keys";
import { applyServiceState, insertSending, markFailed, markPending } from "@/lib/requests/status";
import { peerTransferPayloadSchema } from "@/lib/service/schemas";
import { dbTargets, useTestDatabase } from "@/tests/support/db-targets";
import { payload } from "@/tests/support/payloads";
import { newKey } from "@/tests/support/request-deps";

import { readDayBook } from "./daily";

// The day book (docs/architecture.md "Closing the books") on a real database: a day is a day in Lagos (23:30 and 00:30 fall on two days), its sums
// equal the payments' to the kobo, requests count on the day sent and the day answered, and the balance's readings.

const LOG = { remoteAddr: "203.0.113.7", signatureOk: true } as const;
const LAGOS = "Africa/Lagos";

describe.each(dbTargets())("the day book on $name", (target) => {
  const database = useTestDatabase(target);
  beforeEach(async () => {
    for (const table of ["payments", "payment_hour_totals", "campaign_rows", "fund_requests", "balance_readings"])
      await database.db.execute(sql.raw(`delete from ${table}`));
  });

  async function paid(at: string, gross: string, fee: string, verified = false): Promise<void> {
    const uuid = randomUUID();
    // Asked ₦7 more than was paid: the book's gross is what was paid (actual_amount), never the amount asked.
    const body = payload({ uuid, amount: Number(gross) + 7, actual_amount: Number(gross), settled_amount: Number(gross) - Number(fee), fees: Number(fee) });
    expect(await recordPayment(database.db, peerTransferPayloadSchema.parse(body), "major", LOG)).toBe("recorded");
    await database.db.execute(
      sql`update payments set received_at = ${at}::timestamptz, verification = ${verified ? "verified" : "unverified"} where uuid = ${uuid}`,
    );
  }

  async function asked(at: string, amount: string, outcome: "pending" | "accepted" | "declined" | "failed", decidedAt?: string): Promise<void> {
    const row = await insertSending(database.db, {
      reference: `fb_${newKey("book")}`,
      idempotencyKey: clientKey(newKey("book")),
      tag: "ada.obi",
      amount,
      description: "Dues",
      createdBy: null,
    });
    if (!row) throw new Error("insert refused");
    if (outcome === "failed") await markFailed(database.db, row.id, "refused");
    else {
      const pending = await markPending(database.db, row.id, String(Math.floor(Math.random() * 1e9)));
      if (outcome !== "pending")
        await applyServiceState(database.db, pending?.requestId ?? "", {
          status: outcome,
          requestedBy: { name: "Biz", tag: "biz" },
          requestedSentTo: { name: "Ada", tag: "ada.obi" },
          serviceCreatedAt: null,
          serviceUpdatedAt: new Date(decidedAt ?? at),
        });
    }
    await database.db.execute(sql`update fund_requests set created_at = ${at}::timestamptz where id = ${row.id}::uuid`);
  }

  const balance = (minor: number): BalanceView => ({
    currency: "NGN",
    totalFormatted: "",
    fetchedAt: new Date().toISOString(),
    wallets: [{ name: "Main", main: true, balanceMinor: minor, formatted: "" }],
  });

  it("puts 23:30 and 00:30 Lagos time on two days, and its sums equal the payments' to the kobo", async () => {
    // 23:30 on the 24th in Lagos = 22:30 UTC; 00:30 on the 25th = 23:30 UTC on the 24th.
    await paid("2026-11-24T22:30:00Z", "1500.10", "15.01", true);
    await paid("2026-11-24T23:30:00Z", "0.30", "0.01");
    await paid("2026-11-25T10:00:00Z", "200.20", "2.00", true);
    const book = await readDayBook(database.db, "2026-11-24", "2026-11-25", LAGOS);
    expect(book.days.map((d) => [d.date, d.payments.count, d.payments.gross, d.payments.fees, d.payments.settled, d.payments.verified])).toEqual([
      ["2026-11-24", 1, "1500.10", "15.01", "1485.09", 1],
      ["2026-11-25", 2, "200.50", "2.01", "198.49", 1],
    ]);
    const [sums] = await queryRows<{ gross: string; settled: string }>(
      database.db,
      sql`select sum(actual_amount)::numeric(20,2)::text as gross, sum(settled_amount)::numeric(20,2)::text as settled from payments`,
    );
    expect(book.total.payments).toMatchObject({ count: 3, gross: sums?.gross, settled: sums?.settled });
  });

  it("counts a request on the day it was sent and its answer on the day it came", async () => {
    await asked("2026-11-24T22:30:00Z", "100.00", "accepted", "2026-11-24T23:30:00Z");
    await asked("2026-11-24T12:00:00Z", "50.00", "declined", "2026-11-24T13:00:00Z");
    await asked("2026-11-24T12:00:00Z", "25.00", "failed");
    await asked("2026-11-25T09:00:00Z", "10.00", "pending");
    const [d24, d25] = (await readDayBook(database.db, "2026-11-24", "2026-11-25", LAGOS)).days;
    expect(d24).toMatchObject({ requests: { sent: 2, accepted: 0, declined: 1, failed: 1 }, asked: "150.00", acceptedAmount: "0.00" });
    expect(d25).toMatchObject({ requests: { sent: 1, accepted: 1, declined: 0, failed: 0 }, asked: "10.00", acceptedAmount: "100.00" });
  });

  it("takes each day's first and last balance reading, and what the payments between them do not explain", async () => {
    await recordBalanceReading(database.db, balance(100_000.5), new Date("2026-11-24T08:00:00Z"));
    // Unchanged within 15 minutes: not kept again.
    expect(await recordBalanceReading(database.db, balance(100_000.5), new Date("2026-11-24T08:05:00Z"))).toBe(false);
    await paid("2026-11-24T09:00:00Z", "1000.00", "10.00");
    await recordBalanceReading(database.db, balance(100_000.5 + 99_000 + 500), new Date("2026-11-24T18:00:00Z"));
    const [day] = (await readDayBook(database.db, "2026-11-24", "2026-11-24", LAGOS)).days;
    expect(day?.balance).toEqual({ first: "1000.01", last: "1995.01", change: "995.00" });
    // 990.00 settled between the readings; 5.00 came from elsewhere.
    expect(day?.unexplained).toBe("5.00");
    const [empty] = (await readDayBook(database.db, "2026-11-23", "2026-11-23", LAGOS)).days;
    expect([empty?.balance, empty?.unexplained]).toEqual([null, null]);
  });

  it("counts between two readings a payment at the later reading and in the part-hours at both ends, none outside", async () => {
    await recordBalanceReading(database.db, balance(0), new Date("2026-11-24T08:20:00Z"));
    await recordBalanceReading(database.db, balance(1_000_000), new Date("2026-11-24T18:10:00Z"));
    await paid("2026-11-24T08:20:00Z", "1.00", "0.00"); // at the first reading: before it, not between
    await paid("2026-11-24T08:50:00Z", "20.00", "0.00"); // the first part-hour
    await paid("2026-11-24T12:00:00Z", "300.00", "0.00"); // a kept hour
    await paid("2026-11-24T18:05:00Z", "4000.00", "0.00"); // the last part-hour
    await paid("2026-11-24T18:10:00Z", "50000.00", "0.00"); // at the last reading: between
    await paid("2026-11-24T18:30:00Z", "600000.00", "0.00"); // after it
    const [day] = (await readDayBook(database.db, "2026-11-24", "2026-11-24", LAGOS)).days;
    // 10,000.00 of change less 54,320.00 settled between the readings.
    expect(day?.unexplained).toBe("-44320.00");
    expect(day?.payments).toMatchObject({ count: 6, settled: "654321.00" });
  });

  it("adds the hour still open, read live, to the kept hours", async () => {
    const now = new Date("2026-11-24T12:05:00Z");
    await paid("2026-11-24T10:30:00Z", "10.00", "1.00", true);
    await paid("2026-11-24T11:40:00Z", "20.00", "2.00");
    await paid("2026-11-24T12:01:00Z", "30.00", "3.00", true);
    const [day] = (await readDayBook(database.db, "2026-11-24", "2026-11-24", LAGOS, now)).days;
    expect(day?.payments).toEqual({ count: 3, gross: "60.00", fees: "6.00", settled: "54.00", verified: 2 });
  });

  it("on a half-hour zone (Asia/Kolkata) sums the rows themselves, to the same figures", async () => {
    // 23:45 on the 24th in Kolkata = 18:15 UTC; 00:15 on the 25th = 18:45 UTC, in the same UTC hour.
    await paid("2026-11-24T18:15:00Z", "100.00", "1.00", true);
    await paid("2026-11-24T18:45:00Z", "200.00", "2.00");
    const book = await readDayBook(database.db, "2026-11-24", "2026-11-25", "Asia/Kolkata");
    expect(book.days.map((d) => [d.date, d.payments.count, d.payments.settled, d.payments.verified])).toEqual([
      ["2026-11-24", 1, "99.00", 1],
      ["2026-11-25", 1, "198.00", 0],
    ]);
  });
});
