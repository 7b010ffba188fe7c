// The requests download (GET /api/requests?format=csv): the list's filter, one row per request, times in TIMEZONE.
import { csvTable, csvTime, type CsvColumn } from "@/lib/csv/table";

import type { FundRequestView } from "./view";

function columns(timeZone: string): CsvColumn<FundRequestView>[] {
  return [
    ["created_at", (r) => csvTime(r.createdAt, timeZone)],
    ["request_id", (r) => r.requestId],
    ["reference", (r) => r.reference],
    ["business_reference", (r) => r.businessReference],
    ["tag", (r) => r.tag],
    ["name", (r) => r.requestedSentTo?.name],
    ["amount", (r) => r.amount],
    ["status", (r) => r.status],
    ["description", (r) => r.description],
    ["campaign", (r) => r.campaign?.name],
    ["sent_by", (r) => r.createdBy?.name],
    ["decided_at", (r) => csvTime(r.decidedAt, timeZone)],
    ["payment_uuid", (r) => r.paymentUuid],
    ["error", (r) => r.error],
  ];
}

/** The whole filter as CSV: a header row, then one CRLF-terminated row per request. */
export function requestsCsv(items: readonly FundRequestView[], timeZone: string): string {
  return csvTable(columns(timeZone), items);
}
