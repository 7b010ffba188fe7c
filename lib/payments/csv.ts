import type { PaymentView } from "./view";

// A spreadsheet runs a cell that starts with one of these as a formula (CSV injection).
const FORMULA_START = /^[=+\-@\t\r]/;

/** One RFC 4180 field: formula starts defused with a leading quote, then quoted when it needs to be. */
export function csvField(value: string | null | undefined): string {
  let text = value ?? "";
  if (FORMULA_START.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function csvRow(values: readonly (string | null | undefined)[]): string {
  return `${values.map(csvField).join(",")}\r\n`;
}

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
