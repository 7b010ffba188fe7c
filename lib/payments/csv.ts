// The payments download (GET /api/payments?format=csv): the whole filter, one row per payment, times in TIMEZONE.
import { csvTable, csvTime, type CsvColumn } from "@/lib/csv/table";

import type { PaymentView } from "./view";

function columns(timeZone: string): CsvColumn<PaymentView>[] {
  return [
    ["received_at", (p) => csvTime(p.receivedAt, timeZone)],
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
    ["verification", (p) => (p.recordedByHand ? "recorded by hand, not verified" : p.verification)],
    ["verification_error", (p) => p.verificationError],
    ["verified_at", (p) => csvTime(p.verifiedAt, timeZone)],
    ["request_id", (p) => p.requestId],
    ["business_reference", (p) => p.businessReference],
    ["link_note", (p) => p.linkNote],
    ["recorded_by", (p) => p.recordedByHand?.by ?? null],
    ["hand_reference", (p) => p.recordedByHand?.reference ?? null],
  ];
}

/** The whole filter as CSV: a header row, then one CRLF-terminated row per payment. */
export function paymentsCsv(items: readonly PaymentView[], timeZone: string): string {
  return csvTable(columns(timeZone), items);
}
