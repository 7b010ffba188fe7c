import "server-only";

import { eq, sql } from "drizzle-orm";

import { queryRows } from "@/lib/db/client";
import { campaignRows } from "@/lib/db/schema";
import { publish } from "@/lib/live/bus";
import { createFundRequest } from "@/lib/requests/create";
import type { RequestDeps } from "@/lib/requests/deps";
import { findRequestByIdempotencyKey } from "@/lib/requests/repo";
import { newRequestSchema } from "@/lib/requests/schemas";
import { ServiceError } from "@/lib/service/errors";

import { finishDrainedCampaigns } from "./repo";

/** The idempotency key of a campaign row's request: the row is sent at most once, whatever retries. */
export function campaignRowKey(campaignId: string, row: number): string {
  return `cmp_${campaignId}_${row}`;
}

export interface SendPassResult {
  sent: number;
  /** More queued rows wait; `waitMs` until the next pass may send (the budget's or an in-flight send's). */
  more: boolean;
  waitMs: number;
}

interface NextRow {
  id: number;
  campaign_id: string;
  row: number;
  tag: string;
  amount: string;
  description: string;
  created_by: string | null;
  staff_name: string | null;
}

/**
 * One pass of the campaign-send job (docs/architecture.md, "A campaign"): queued rows of sending
 * campaigns, oldest campaign first, each through the form's own code path (createFundRequest), until
 * `maxRows` or the background budget says wait. Pause takes effect at the next row.
 */
export async function sendCampaignRows(deps: RequestDeps, maxRows: number): Promise<SendPassResult> {
  const { db } = deps;
  let sent = 0;
  for (let i = 0; i < maxRows; i++) {
    const [next] = await queryRows<NextRow>(
      db,
      sql`select r.id, r.campaign_id, r.row, r.tag, r.amount_naira::text as amount, r.description, c.created_by, s.name as staff_name
          from campaign_rows r join campaigns c on c.id = r.campaign_id left join staff s on s.id = c.created_by
          where c.status = 'sending' and r.status = 'queued'
          order by c.started_at, c.id, r.row limit 1`,
    );
    if (!next) {
      for (const id of await finishDrainedCampaigns(db)) publish({ type: "campaign.progress", id });
      return { sent, more: false, waitMs: 0 };
    }
    if (!next.created_by) {
      await db
        .update(campaignRows)
        .set({ status: "failed", error: "The account that uploaded this campaign no longer exists." })
        .where(eq(campaignRows.id, next.id));
      continue;
    }
    const key = campaignRowKey(next.campaign_id, next.row);
    const input = newRequestSchema.parse({ tag: next.tag, amount: next.amount, description: next.description, idempotencyKey: key });
    try {
      const outcome = await createFundRequest(deps, input, { id: next.created_by, name: next.staff_name ?? "campaign" });
      if (outcome.kind === "in_flight") return { sent, more: true, waitMs: 5_000 };
      if (outcome.kind === "key_reused") {
        await db.update(campaignRows).set({ status: "failed", error: "Another request already used this row's key." }).where(eq(campaignRows.id, next.id));
      } else {
        const record = await findRequestByIdempotencyKey(db, key);
        await db
          .update(campaignRows)
          .set({ status: "sent", fundRequestId: record?.id ?? null })
          .where(sql`${campaignRows.id} = ${next.id} and ${campaignRows.status} = 'queued'`);
        sent += 1;
      }
    } catch (error) {
      // The shared budget has no room for background work now: the row stays queued for the next pass.
      if (error instanceof ServiceError && error.budgetRefused) return { sent, more: true, waitMs: error.retryAfterMs ?? 1_000 };
      throw error;
    }
    publish({ type: "campaign.progress", id: next.campaign_id });
  }
  return { sent, more: true, waitMs: 0 };
}
