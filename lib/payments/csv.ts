import { csvRow } from "@/lib/csv/row";

import type { PaymentView } from "./view";

const COLUMNS: [string, (p: PaymentView) => string | null][] = [
  ["received_at", (p) => p.receivedAt],
  ["uuid", (p) => p.uuid],
  ["type", (p) => p.type],
  ["customer_name", (p) => p.customer.name],
  ["customer_tag", (p) => p.customer.tag],
  ["customer_email", (p) => p.customer.email],
  ["customer_phone", (p) => p.customer.phone],
  ["amount", (p) => p.amount],
  ["actual_amount", (p) => p.actualAmount],
  ["fees", (p) => p.fees],
  ["settled_amount", (p) => p.settledAmount],
  ["description", (p) => p.description],
  ["verification", (p) => p.verification],
  ["verification_error", (p) => p.verificationError],
  ["verified_at", (p) => p.verifiedAt],
  ["request_id", (p) => p.requestId],
  ["link_note", (p) => p.linkNote],
];

/** The whole filter as CSV: a header row, then one CRLF-terminated row per payment. */
export function paymentsCsv(items: readonly PaymentView[]): string {
  return csvRow(COLUMNS.map(([name]) => name)) + items.map((p) => csvRow(COLUMNS.map(([, get]) => get(p)))).join("");
}

export function csvFilename(now = new Date()): string {
  return `payments-${now.toISOString().slice(0, 10)}.csv`;
}
