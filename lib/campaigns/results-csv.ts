import "server-only";

import type { Db } from "@/lib/db/client";
import { csvRow } from "@/lib/csv/row";
import { isoInZone } from "@/lib/client/time/zone";

import { listCampaignRows } from "./queries";
import type { RowFilter } from "@/lib/client/campaigns/view";

const PAGE = 2_000;

/**
 * The rows the page shows under `status` (all when absent), one line each: the file's line, tag, the business's
 * reference, amount asked, description, status, request id, error, and who paid, how much (paid, and settled after
 * fees: what "collected" counts) and when (in `timeZone`, with its offset). Formula-guarded.
 */
export async function campaignResultsCsv(db: Db, campaignId: string, timeZone: string, status?: RowFilter): Promise<string> {
  let out = csvRow([
    "line",
    "tag",
    "reference",
    "amount",
    "description",
    "status",
    "request_id",
    "error",
    "payer_name",
    "amount_paid",
    "amount_settled",
    "paid_at",
  ]);
  for (let page = 1; ; page++) {
    const { items } = await listCampaignRows(db, campaignId, { page, status }, PAGE);
    for (const r of items)
      out += csvRow([
        String(r.line),
        r.tag,
        r.businessReference,
        r.amount,
        r.description,
        r.status,
        r.requestId,
        r.error,
        r.paidBy,
        r.paidAmount,
        r.settledAmount,
        r.paidAt ? isoInZone(new Date(r.paidAt), timeZone) : null,
      ]);
    if (items.length < PAGE) return out;
  }
}
