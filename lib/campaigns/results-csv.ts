import "server-only";

import type { Db } from "@/lib/db/client";
import { csvRow } from "@/lib/csv/row";

import { listCampaignRows } from "./queries";

const PAGE = 2_000;

/** One line per row of the file: row, tag, amount, description, status, request id, error (formula-guarded). */
export async function campaignResultsCsv(db: Db, campaignId: string): Promise<string> {
  let out = csvRow(["row", "tag", "amount", "description", "status", "request_id", "error"]);
  for (let page = 1; ; page++) {
    const { items } = await listCampaignRows(db, campaignId, { page }, PAGE);
    for (const r of items) out += csvRow([String(r.row), r.tag, r.amount, r.description, r.status, r.requestId, r.error]);
    if (items.length < PAGE) return out;
  }
}
