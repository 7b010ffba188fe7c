// The day book as a download (GET /api/reports/daily?format=csv): one row a day, then the total row.
import type { DayBook, DayEntry } from "@/lib/client/reports/daily";
import { csvTable, type CsvColumn } from "@/lib/csv/table";

type Row = Omit<DayEntry, "date" | "openExceptions"> & { date: string; openExceptions: number | null };

const COLUMNS: CsvColumn<Row>[] = [
  ["date", (r) => r.date],
  ["requests_sent", (r) => String(r.requests.sent)],
  ["requests_accepted", (r) => String(r.requests.accepted)],
  ["requests_declined", (r) => String(r.requests.declined)],
  ["requests_failed", (r) => String(r.requests.failed)],
  ["asked", (r) => r.asked],
  ["accepted_amount", (r) => r.acceptedAmount],
  ["payments", (r) => String(r.payments.count)],
  ["gross", (r) => r.payments.gross],
  ["fees", (r) => r.payments.fees],
  ["settled", (r) => r.payments.settled],
  ["verified", (r) => String(r.payments.verified)],
  ["balance_first", (r) => r.balance?.first ?? null],
  ["balance_last", (r) => r.balance?.last ?? null],
  ["balance_change", (r) => r.balance?.change ?? null],
  ["unexplained", (r) => r.unexplained],
  ["open_exceptions", (r) => (r.openExceptions === null ? null : String(r.openExceptions))],
];

export function dayBookCsv(book: DayBook): string {
  return csvTable(COLUMNS, [...book.days, { ...book.total, openExceptions: null }]);
}
