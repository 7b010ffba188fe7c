import "server-only";

// Payments and their fees for an accountant (docs/architecture.md "Closing the books"): Xero's bank
// statement CSV and QuickBooks' three-column CSV, a line per payment (the gross amount the payer sent) and a line per
// fee (negative), each on the day it was received in TIMEZONE, formula-guarded (plain numbers stay numbers).
import { and, asc, eq, gte, lt, sql, type SQL } from "drizzle-orm";

import type { ExportFormat } from "@/lib/client/payments/export-query";
import { instantsOfDays, type DayRange } from "@/lib/client/time/day-range";
import { dayOf, endOfDay, startOfDay } from "@/lib/client/time/zone";
import { csvRow } from "@/lib/csv/row";
import { queryRows, type Db } from "@/lib/db/client";
import { fundRequests, payments } from "@/lib/db/schema";

export interface ExportPayment {
  uuid: string;
  receivedAt: Date;
  actualAmount: string;
  fees: string;
  customerName: string | null;
  customerTag: string | null;
  description: string | null;
  source: "webhook" | "hand";
  handReference: string | null;
  /** The business's own reference of the linked request; null when none. */
  businessReference: string | null;
}

/** What a payment recorded by a person (a lost notice settled by hand) carries wherever it shows. */
export const HAND_MARK = "recorded by hand, not verified";

/** The payee the fee lines name: the service takes the fee. */
const FEE_PAYEE = "Peer transfer service";

/**
 * DD/MM/YYYY, the day in `timeZone` (what Xero and QuickBooks read for a Nigerian organisation), for payments read
 * in time order: the day's bounds are kept, so a file's 500,000 payments take one time-zone reading a day, not one a
 * payment (each allocates a dozen objects; docs/decisions.md, "What the exports' memory is, measured").
 */
export function ledgerDates(timeZone: string): (at: Date) => string {
  let start = 0;
  let end = 0;
  let label = "";
  return (at) => {
    const t = at.getTime();
    if (t >= start && t < end) return label;
    const day = dayOf(at, timeZone);
    const [y, m, d] = day.split("-");
    start = startOfDay(day, timeZone).getTime();
    end = endOfDay(day, timeZone).getTime();
    label = `${d}/${m}/${y}`;
    return label;
  };
}

const negative = (amount: string) => (/^0+(\.0+)?$/.test(amount) ? null : `-${amount}`);

/** Payments read per query: a year of a busy wallet is read in pieces, never all in one result. */
const EXPORT_PAGE = 1_000;
/** The most payments one file carries; more is refused (never cut short: the file must balance with the day book). */
export const EXPORT_MAX_PAYMENTS = 500_000;

function rangeConditions(range: DayRange, timeZone: string): SQL | undefined {
  const { from, to } = instantsOfDays(range, timeZone);
  const conditions: SQL[] = [];
  if (from) conditions.push(gte(payments.receivedAt, from));
  if (to) conditions.push(lt(payments.receivedAt, to));
  return conditions.length ? and(...conditions) : undefined;
}

/** How many payments fall on the days of `range`, counted to `max + 1` at most (the route refuses more than `max`). */
export async function countForExport(db: Db, range: DayRange, timeZone: string, max = EXPORT_MAX_PAYMENTS): Promise<number> {
  const where = rangeConditions(range, timeZone);
  const [row] = await queryRows<{ n: number }>(
    db,
    sql`select count(*)::int as n from (select 1 from ${payments} ${where ? sql`where ${where}` : sql``} limit ${max + 1}) capped`,
  );
  return Number(row?.n ?? 0);
}

/**
 * The payments received on the days of `range` in `timeZone`, oldest first, a page at a time: keyset paging on
 * (received, uuid), an order new payments only extend, so a file is streamed with one page in memory.
 */
export async function* exportPages(db: Db, range: DayRange, timeZone: string, pageSize = EXPORT_PAGE): AsyncGenerator<ExportPayment[]> {
  const { from, to } = instantsOfDays(range, timeZone);
  // The first day's first instant is the first key ("" sorts before every uuid). Every page is one bound on the
  // (received, uuid) index and the end of the range, and only the page's own rows are joined: with the range's two
  // ends and the join around it, the embedded database (no statistics) sorted every payment left for each page
  // (docs/decisions.md, "What the exports' memory is, measured").
  let after: { receivedAt: Date; uuid: string } | null = from ? { receivedAt: from, uuid: "" } : null;
  for (;;) {
    const keyset = after ? sql`(${payments.receivedAt}, ${payments.uuid}) > (${after.receivedAt.toISOString()}::timestamptz, ${after.uuid})` : undefined;
    const taken = db
      .select({
        uuid: payments.uuid,
        receivedAt: payments.receivedAt,
        actualAmount: payments.actualAmount,
        fees: payments.fees,
        customerName: payments.customerName,
        customerTag: payments.customerTag,
        description: payments.description,
        source: payments.source,
        handReference: payments.handReference,
        fundRequestId: payments.fundRequestId,
      })
      .from(payments)
      .where(and(keyset, to ? lt(payments.receivedAt, to) : undefined))
      .orderBy(asc(payments.receivedAt), asc(payments.uuid))
      .limit(pageSize)
      .as("page");
    const page: ExportPayment[] = await db
      .select({
        uuid: taken.uuid,
        receivedAt: taken.receivedAt,
        actualAmount: taken.actualAmount,
        fees: taken.fees,
        customerName: taken.customerName,
        customerTag: taken.customerTag,
        description: taken.description,
        source: taken.source,
        handReference: taken.handReference,
        businessReference: fundRequests.businessReference,
      })
      .from(taken)
      .leftJoin(fundRequests, eq(fundRequests.id, taken.fundRequestId))
      .orderBy(asc(taken.receivedAt), asc(taken.uuid));
    if (page.length > 0) yield page;
    const last = page.at(-1);
    if (page.length < pageSize || !last) return;
    after = { receivedAt: last.receivedAt, uuid: last.uuid };
  }
}

/**
 * Every payment received on the days of `range` in `timeZone`, oldest first, or null when there are more than `max`
 * (the route asks for fewer days). For tests and small reads: the route streams `exportPages`.
 */
export async function paymentsForExport(
  db: Db,
  range: DayRange,
  timeZone: string,
  { pageSize = EXPORT_PAGE, max = EXPORT_MAX_PAYMENTS } = {},
): Promise<ExportPayment[] | null> {
  const items: ExportPayment[] = [];
  for await (const page of exportPages(db, range, timeZone, pageSize)) {
    items.push(...page);
    if (items.length > max) return null;
  }
  return items;
}

function payee(p: ExportPayment): string {
  return p.customerName || (p.customerTag ? `@${p.customerTag}` : "Unknown payer");
}

/**
 * Who the line is about as an accountant matches it: the business's own reference with the payer's tag, or the tag
 * alone ("INV-0042 (ada.obi)"). The tag is written without its "@", which a spreadsheet would take for a formula.
 */
function customerReference(p: ExportPayment): string {
  const tag = p.customerTag ? p.customerTag.replace(/^@/, "") : "";
  if (!p.businessReference) return tag;
  return tag ? `${p.businessReference} (${tag})` : p.businessReference;
}

/** The file's header line for `format`. */
export function accountingHeader(format: ExportFormat): string {
  return format === "xero" ? csvRow(["*Date", "*Amount", "Payee", "Description", "Reference"]) : csvRow(["Date", "Description", "Amount"]);
}

/**
 * One payment's lines: its own and, when it had a fee, the fee's. Xero's Reference is the business's reference and
 * the tag; QuickBooks' Description carries both. The payment's uuid stays in the description, so each line is found
 * again at the service.
 */
export function accountingLines(format: ExportFormat, p: ExportPayment, ledgerDate: (at: Date) => string): string {
  const date = ledgerDate(p.receivedAt);
  const what = `${p.description || "Peer transfer"} (${p.uuid}${p.source === "hand" ? `; ${HAND_MARK}${p.handReference ? `, ref ${p.handReference}` : ""}` : ""})`;
  const who = customerReference(p);
  const fee = negative(p.fees);
  if (format === "xero") return csvRow([date, p.actualAmount, payee(p), what, who]) + (fee ? csvRow([date, fee, FEE_PAYEE, `Fee: ${what}`, who]) : "");
  return (
    csvRow([date, `${payee(p)}${who ? ` ${who}` : ""}: ${what}`, p.actualAmount]) + (fee ? csvRow([date, `Fee${who ? ` ${who}` : ""}: ${what}`, fee]) : "")
  );
}

/**
 * Payments per piece of a streamed file: about 30 KB of text, under V8's large-object size (~128 KB), so each piece
 * and its bytes die young in the new space instead of waiting in the old one for a full collection (a page of 1,000
 * payments joined whole was ~300 KB a piece; docs/decisions.md, "What the exports' memory is, measured").
 */
export const FILE_PIECE_PAYMENTS = 100;

/** The file for `format` as it is read: its header, then each page's lines in pieces of FILE_PIECE_PAYMENTS payments. */
export async function* accountingFile(db: Db, format: ExportFormat, range: DayRange, timeZone: string): AsyncGenerator<string> {
  yield accountingHeader(format);
  const ledgerDate = ledgerDates(timeZone);
  for await (const page of exportPages(db, range, timeZone))
    for (let i = 0; i < page.length; i += FILE_PIECE_PAYMENTS) {
      let piece = "";
      for (const p of page.slice(i, i + FILE_PIECE_PAYMENTS)) piece += accountingLines(format, p, ledgerDate);
      yield piece;
    }
}

/** The whole file for `format`: its header, then each payment's lines. */
export function accountingCsv(format: ExportFormat, items: readonly ExportPayment[], timeZone: string): string {
  const ledgerDate = ledgerDates(timeZone);
  return accountingHeader(format) + items.map((p) => accountingLines(format, p, ledgerDate)).join("");
}
