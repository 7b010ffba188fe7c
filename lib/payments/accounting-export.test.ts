import { sql } from "drizzle-orm";
import Papa from "papaparse";
import { beforeEach, describe, expect, it } from "vitest";

import { readDayBook } from "@/lib/reports/daily";

import { peerTransferPayloadSchema } from "@/lib/service/schemas";
import { dbTargets, useTestDatabase } from "@/tests/support/db-targets";
import { payload } from "@/tests/support/payloads";

import { dayOf } from "@/lib/client/time/zone";

import { accountingCsv, accountingFile, FILE_PIECE_PAYMENTS, ledgerDates, paymentsForExport } from "./accounting-export";
import { recordPayment } from "./record";

// The accounting export (docs/architecture.md "Closing the books") on a real database: a line per payment and per fee, the day in Lagos time
// across midnight, formula-guarded text and amounts that stay numbers.

const LOG = { remoteAddr: "203.0.113.9", signatureOk: true } as const;
const LAGOS = "Africa/Lagos";

describe("the ledger date of each line", () => {
  it("is the payment's day in the zone, read once a day, across midnight and a 23-hour day, in any order", () => {
    // London's 28 March 2027 is 23 hours long (clocks forward at 01:00 UTC); Lagos' midnight is 23:00 UTC.
    const cases: [string, string, string][] = [
      ["Europe/London", "2027-03-27T23:30:00Z", "27/03/2027"],
      ["Europe/London", "2027-03-28T00:30:00Z", "28/03/2027"],
      ["Europe/London", "2027-03-28T22:59:59.999Z", "28/03/2027"],
      ["Europe/London", "2027-03-28T23:00:00Z", "29/03/2027"],
      ["Europe/London", "2027-03-28T01:30:00Z", "28/03/2027"],
      [LAGOS, "2026-11-24T22:59:59.999Z", "24/11/2026"],
      [LAGOS, "2026-11-24T23:00:00Z", "25/11/2026"],
      [LAGOS, "2026-11-24T12:00:00Z", "24/11/2026"],
    ];
    const byZone = new Map<string, (at: Date) => string>();
    for (const [zone, at, expected] of cases) {
      const date = byZone.get(zone) ?? ledgerDates(zone);
      byZone.set(zone, date);
      const [y, m, d] = dayOf(new Date(at), zone).split("-");
      expect(`${d}/${m}/${y}`, `${zone} ${at}`).toBe(expected);
      expect(date(new Date(at)), `${zone} ${at}`).toBe(expected);
    }
  });
});

describe.each(dbTargets())("accounting export on $name", (target) => {
  const database = useTestDatabase(target);
  beforeEach(async () => {
    await database.db.execute(sql`delete from payments`);
    await database.db.execute(sql`delete from payment_hour_totals`);
  });

  /** A payment of `gross` naira with a fee of `fee`, received at `at` (UTC ISO). */
  async function paid(uuid: string, gross: number, fee: number, at: string, description: string, name = "Ada Obi") {
    // Asked 1 naira more than was paid: the file carries what was paid (actual_amount), never the amount asked.
    const body = payload({ uuid, amount: gross + 1, actual_amount: gross, settled_amount: gross - fee, fees: fee, description });
    const parsed = peerTransferPayloadSchema.parse({ ...body, customer: { ...body.customer, name, tag: "ada.obi" } });
    expect(await recordPayment(database.db, parsed, "major", LOG)).toBe("recorded");
    await database.db.execute(sql`update payments set received_at = ${at}::timestamptz where uuid = ${uuid}`);
  }

  it("writes Xero's and QuickBooks' files: each payment gross, each fee negative, on its Lagos day", async () => {
    // 23:30 on 24 November in Lagos is 22:30 UTC; 00:30 on 25 November in Lagos is 23:30 UTC on the 24th.
    await paid("0b7d2f4e-0000-4000-8000-000000000001", 1500, 15, "2026-11-24T22:30:00Z", "November dues");
    await paid("0b7d2f4e-0000-4000-8000-000000000002", 2000, 0, "2026-11-24T23:30:00Z", '=HYPERLINK("x")', "Bola, Ade");
    // The first is linked to a request that carries the business's own reference.
    await database.db.execute(
      sql`insert into fund_requests (reference, tag, amount, description, status, business_reference, payment_uuid)
          values ('fb_export_ref', 'ada.obi', 1501, 'November dues', 'accepted', 'INV-0042', '0b7d2f4e-0000-4000-8000-000000000001')`,
    );
    await database.db.execute(
      sql`update payments set fund_request_id = (select id from fund_requests where reference = 'fb_export_ref') where uuid = '0b7d2f4e-0000-4000-8000-000000000001'`,
    );
    const day24 = (await paymentsForExport(database.db, { from: "2026-11-24", to: "2026-11-24" }, LAGOS)) ?? [];
    expect(day24.map((p) => p.uuid)).toEqual(["0b7d2f4e-0000-4000-8000-000000000001"]);
    const both = (await paymentsForExport(database.db, { from: "2026-11-24", to: "2026-11-25" }, LAGOS)) ?? [];
    expect(accountingCsv("xero", both, LAGOS).split("\r\n")).toEqual([
      "*Date,*Amount,Payee,Description,Reference",
      "24/11/2026,1500.00,Ada Obi,November dues (0b7d2f4e-0000-4000-8000-000000000001),INV-0042 (ada.obi)",
      "24/11/2026,-15.00,Peer transfer service,Fee: November dues (0b7d2f4e-0000-4000-8000-000000000001),INV-0042 (ada.obi)",
      // No fee, no fee line; the description a spreadsheet would run is defused; no reference of ours: the tag alone.
      `25/11/2026,2000.00,"Bola, Ade","'=HYPERLINK(""x"") (0b7d2f4e-0000-4000-8000-000000000002)",ada.obi`,
      "",
    ]);
    expect(accountingCsv("quickbooks", day24, LAGOS).split("\r\n")).toEqual([
      "Date,Description,Amount",
      "24/11/2026,Ada Obi INV-0042 (ada.obi): November dues (0b7d2f4e-0000-4000-8000-000000000001),1500.00",
      "24/11/2026,Fee INV-0042 (ada.obi): November dues (0b7d2f4e-0000-4000-8000-000000000001),-15.00",
      "",
    ]);
  });
  it("reads back with a CSV parser: its columns, a positive line per payment, a negative one per fee, totals equal to the day book's", async () => {
    const at = ["2026-11-23T08:00:00Z", "2026-11-24T22:30:00Z", "2026-11-24T23:30:00Z", "2026-11-25T12:15:00Z"];
    for (const [i, when] of at.entries()) await paid(`0b7d2f4e-0000-4000-8000-00000000001${i}`, 1000.1 * (i + 1), i % 2 === 0 ? 10.01 : 0, when, `Dues ${i}`);
    const range = { from: "2026-11-23", to: "2026-11-25" };
    const book = await readDayBook(database.db, range.from, range.to, LAGOS);
    const items = (await paymentsForExport(database.db, range, LAGOS)) ?? [];
    const kobo = (v: string) => Math.round(Number(v) * 100);
    for (const [format, amountColumn] of [
      ["xero", "*Amount"],
      ["quickbooks", "Amount"],
    ] as const) {
      const parsed = Papa.parse<Record<string, string>>(accountingCsv(format, items, LAGOS), { header: true, skipEmptyLines: true });
      expect(parsed.errors).toEqual([]);
      expect(parsed.meta.fields).toEqual(format === "xero" ? ["*Date", "*Amount", "Payee", "Description", "Reference"] : ["Date", "Description", "Amount"]);
      const amounts = parsed.data.map((row) => kobo(row[amountColumn] ?? ""));
      expect(amounts.filter((a) => a > 0).reduce((t, a) => t + a, 0)).toBe(kobo(book.total.payments.gross));
      expect(-amounts.filter((a) => a < 0).reduce((t, a) => t + a, 0)).toBe(kobo(book.total.payments.fees));
      expect(amounts.reduce((t, a) => t + a, 0)).toBe(kobo(book.total.payments.settled));
      expect([amounts.filter((a) => a > 0).length, amounts.filter((a) => a < 0).length]).toEqual([4, 2]);
    }
  });

  it("carries every payment of the days, read a page at a time, and refuses (never cuts short) more than it may carry", async () => {
    for (let i = 0; i < 5; i++) await paid(`0b7d2f4e-0000-4000-8000-00000000002${i}`, 100 + i, 1, `2026-11-24T1${i}:00:00Z`, `Dues ${i}`);
    const range = { from: "2026-11-24", to: "2026-11-24" };
    const all = await paymentsForExport(database.db, range, LAGOS, { pageSize: 2, max: 5 });
    expect(all?.map((p) => p.actualAmount)).toEqual(["100.00", "101.00", "102.00", "103.00", "104.00"]);
    expect(await paymentsForExport(database.db, range, LAGOS, { pageSize: 2, max: 4 })).toBeNull();
  });

  it("streams the whole file in pieces of at most FILE_PIECE_PAYMENTS payments, each a few tens of KB", async () => {
    const count = 2 * FILE_PIECE_PAYMENTS + 5;
    for (let i = 0; i < count; i++)
      await paid(`0b7d2f4e-0000-4000-8000-${String(i).padStart(12, "0")}`, 100 + i, 1, `2026-11-24T10:${String(i % 60).padStart(2, "0")}:00Z`, `Dues ${i}`);
    const range = { from: "2026-11-24", to: "2026-11-24" };
    const pieces: string[] = [];
    for await (const piece of accountingFile(database.db, "xero", range, LAGOS)) pieces.push(piece);
    const all = await paymentsForExport(database.db, range, LAGOS);
    expect(pieces.join("")).toBe(accountingCsv("xero", all ?? [], LAGOS));
    // The header, then two full pieces and the rest: a payment and its fee are two lines.
    expect(pieces.slice(1).map((p) => p.split("\r\n").length - 1)).toEqual([2 * FILE_PIECE_PAYMENTS, 2 * FILE_PIECE_PAYMENTS, 10]);
    expect(Math.max(...pieces.map((p) => p.length))).toBeLessThan(64 * 1024);
  });

  it("starts at the first Lagos day's first instant, ends before the day after the last, and keeps payments at one instant across pages", async () => {
    // Lagos midnight of the 24th is 23:00 UTC on the 23rd; two payments share 10:00 UTC and fall on either side of a page.
    await paid("0b7d2f4e-0000-4000-8000-000000000031", 201, 1, "2026-11-23T22:59:59.999Z", "Before the first day");
    await paid("0b7d2f4e-0000-4000-8000-000000000032", 202, 1, "2026-11-23T23:00:00.000Z", "First instant");
    await paid("0b7d2f4e-0000-4000-8000-000000000034", 204, 1, "2026-11-24T10:00:00.000Z", "Same instant, later uuid");
    await paid("0b7d2f4e-0000-4000-8000-000000000033", 203, 1, "2026-11-24T10:00:00.000Z", "Same instant, earlier uuid");
    await paid("0b7d2f4e-0000-4000-8000-000000000035", 205, 1, "2026-11-25T22:59:59.999Z", "Last instant");
    await paid("0b7d2f4e-0000-4000-8000-000000000036", 206, 1, "2026-11-25T23:00:00.000Z", "After the last day");
    const range = { from: "2026-11-24", to: "2026-11-25" };
    for (const pageSize of [1, 2, 3, 10]) {
      const all = await paymentsForExport(database.db, range, LAGOS, { pageSize });
      expect(
        all?.map((p) => p.actualAmount),
        `pages of ${pageSize}`,
      ).toEqual(["202.00", "203.00", "204.00", "205.00"]);
    }
  });
});
