// The payers download (GET /api/payers?format=csv): the list's filter and order, one row per payer, times in TIMEZONE.
import type { PayerView } from "@/lib/client/payers/view";
import { csvTable, csvTime, type CsvColumn } from "@/lib/csv/table";

function columns(timeZone: string): CsvColumn<PayerView>[] {
  return [
    ["tag", (p) => p.tag],
    ["name", (p) => p.name],
    ["asked", (p) => String(p.asked)],
    ["accepted", (p) => String(p.accepted)],
    ["declined", (p) => String(p.declined)],
    ["unanswered", (p) => String(p.unanswered)],
    ["failed", (p) => String(p.failed)],
    ["payments", (p) => String(p.payments)],
    ["collected", (p) => p.collected],
    ["last_activity_at", (p) => csvTime(p.lastActivityAt, timeZone)],
    ["median_answer_seconds", (p) => (p.medianAnswerSeconds === null ? null : String(p.medianAnswerSeconds))],
    ["do_not_ask", (p) => (p.doNotAsk ? "yes" : "no")],
    ["paid_twice", (p) => (p.overpaid > 0 ? "yes" : "no")],
  ];
}

export function payersCsv(items: readonly PayerView[], timeZone: string): string {
  return csvTable(columns(timeZone), items);
}
