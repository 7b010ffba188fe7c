import "server-only";

import { and, eq, sql } from "drizzle-orm";

import { queryRows, type Db } from "@/lib/db/client";
import type { LeftOutReason } from "@/lib/client/campaigns/view";
import { campaignRows, campaigns } from "@/lib/db/schema";
import { announce } from "@/lib/live/notify";

// A row is claimed before its call and, after the call, sent with its request whatever the campaign's
// state meanwhile: cancel skips only rows still queued (docs/architecture.md, "Campaigns").

/**
 * Longer than one send takes to record its request (milliseconds) and, with room to spare, to finish its call
 * (10 s timeout, a retry): a claim this old lost its process. Taking one over is safe even if it did not:
 * the request's unique key allows one call, and a recorded request is linked, never sent again.
 */
export const CLAIM_STALE_MS = 60_000;

export interface ClaimedRow {
  id: number;
  campaignId: string;
  row: number;
  tag: string;
  amount: string;
  description: string;
  businessReference: string | null;
  senderId: string;
  senderName: string;
  /** The family's first campaign when this is an ask-again round (its rows are checked against the policy again). */
  familyId: string | null;
  /** The round was made to ask people still cooling down (lib/campaigns/ask-again.ts). */
  cooldownOverride: boolean;
}

interface ClaimRecord {
  id: number;
  campaign_id: string;
  row: number;
  tag: string;
  amount: string;
  description: string;
  business_reference: string | null;
  sender_id: string;
  sender_name: string;
  family_id: string | null;
  cooldown_override: boolean;
}

/**
 * Claims the next queued row of a sending campaign (oldest campaign first) whose sender of record may
 * still send. One statement: the row's lock decides between this claim and a cancel's skip.
 */
export async function claimNextRow(db: Db): Promise<ClaimedRow | null> {
  const [claimed] = await queryRows<ClaimRecord>(
    db,
    sql`update campaign_rows r set status = 'claimed', claimed_at = now()
        from campaigns c join staff s on s.id = c.sender_id
        where c.id = r.campaign_id and r.status = 'queued' and r.id = (
          select q.id from campaign_rows q
            join campaigns qc on qc.id = q.campaign_id
            join staff qs on qs.id = qc.sender_id
          where qc.status = 'sending' and q.status = 'queued' and not qs.disabled and qs.role in ('admin', 'operator')
          order by qc.started_at, qc.id, q.row limit 1
          for update of q skip locked)
        returning r.id, r.campaign_id, r.row, r.tag, r.amount_naira::text as amount, r.description, r.business_reference, c.sender_id, s.name as sender_name, c.family_id, c.cooldown_override`,
  );
  if (!claimed) return null;
  return {
    id: Number(claimed.id),
    campaignId: claimed.campaign_id,
    row: claimed.row,
    tag: claimed.tag,
    amount: claimed.amount,
    description: claimed.description,
    businessReference: claimed.business_reference,
    senderId: claimed.sender_id,
    senderName: claimed.sender_name,
    familyId: claimed.family_id,
    cooldownOverride: claimed.cooldown_override === true,
  };
}

/** The claimed row's call is over: it is sent with its request (the request's status says how it went). */
export async function markClaimSent(db: Db, rowId: number, fundRequestId: string): Promise<boolean> {
  return settleClaim(db, rowId, { status: "sent", fundRequestId });
}

export async function markClaimFailed(db: Db, rowId: number, error: string): Promise<void> {
  await settleClaim(db, rowId, { status: "failed", error });
}

/** The policy left the claimed row out as it was about to be sent: skipped unsent, with the reason. */
export async function markClaimLeftOut(db: Db, rowId: number, reason: LeftOutReason, error: string): Promise<void> {
  await settleClaim(db, rowId, { status: "skipped", leftOut: reason, error });
}

/** A claimed row's outcome, and its campaign's page told at the commit. False when it was not claimed. */
async function settleClaim(db: Db, rowId: number, outcome: Partial<typeof campaignRows.$inferInsert>): Promise<boolean> {
  return db.transaction(async (tx) => {
    const [done] = await tx
      .update(campaignRows)
      .set({ ...outcome, claimedAt: null })
      .where(and(eq(campaignRows.id, rowId), eq(campaignRows.status, "claimed")))
      .returning({ campaignId: campaignRows.campaignId });
    if (done) await announce(tx, { type: "campaign.progress", campaignId: done.campaignId });
    return done !== undefined;
  });
}

/**
 * Nothing reached the service for this claim (the budget refused it, or its process died before recording
 * it): queued again, or skipped when the campaign was cancelled meanwhile. The campaign's row is read
 * under a share lock, so a cancel committing at the same time is either seen here or sees the row queued.
 */
export async function releaseClaim(db: Db, rowId: number, campaignId: string): Promise<void> {
  await db.transaction(async (tx) => {
    const [campaign] = await tx.select({ status: campaigns.status }).from(campaigns).where(eq(campaigns.id, campaignId)).for("share");
    await tx
      .update(campaignRows)
      .set({ status: campaign?.status === "cancelled" ? "skipped" : "queued", claimedAt: null })
      .where(and(eq(campaignRows.id, rowId), eq(campaignRows.status, "claimed")));
    await announce(tx, { type: "campaign.progress", campaignId });
  });
}

/** Whether any row is claimed (being sent, or left by a dead process): the job keeps looking until it is settled. */
export async function hasClaims(db: Db): Promise<boolean> {
  const [found] = await queryRows<{ one: number }>(db, sql`select 1 as one from campaign_rows where status = 'claimed' limit 1`);
  return found !== undefined;
}

/** Takes over one claim older than CLAIM_STALE_MS (its process died mid-send), refreshing its time. */
export async function takeStaleClaim(db: Db, now = new Date()): Promise<{ id: number; campaignId: string; row: number } | null> {
  const [stale] = await queryRows<{ id: number; campaign_id: string; row: number }>(
    db,
    sql`update campaign_rows set claimed_at = ${now.toISOString()}::timestamptz
        where status = 'claimed' and id = (
          select id from campaign_rows
          where status = 'claimed' and claimed_at < ${new Date(now.getTime() - CLAIM_STALE_MS).toISOString()}::timestamptz
          order by claimed_at limit 1 for update skip locked)
        returning id, campaign_id, row`,
  );
  return stale ? { id: Number(stale.id), campaignId: stale.campaign_id, row: stale.row } : null;
}
