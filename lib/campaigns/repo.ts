import "server-only";

import { and, eq, inArray, sql } from "drizzle-orm";

import type { Db } from "@/lib/db/client";
import { campaignRows, campaigns, fundRequests, type CampaignRow } from "@/lib/db/schema";
import { isUuid } from "@/lib/http/route-params";

import { repeatedTags, type ParsedRow } from "./parse";
import type { CampaignStatus } from "@/lib/client/campaigns/view";
import { TRANSITIONS, type Transition } from "@/lib/client/campaigns/transitions";

const INSERT_CHUNK = 1_000;

/** Drafts one person may keep at once: the next upload is refused until one is started or discarded. */
export const MAX_DRAFTS_PER_PERSON = 20;

/** The uploader already keeps MAX_DRAFTS_PER_PERSON drafts. */
export class DraftLimitError extends Error {
  constructor(readonly drafts: number) {
    super(`draft limit reached (${drafts})`);
    this.name = "DraftLimitError";
  }
}

/**
 * A draft campaign and all its rows (invalid ones with their reason, flagged ones with a warning), in one
 * transaction; its uploader is its first sender of record. The uploader's drafts are counted under a
 * transaction-scoped advisory lock on their id, so concurrent uploads cannot pass the cap together.
 */
export async function createCampaign(db: Db, name: string, rows: readonly ParsedRow[], createdBy: string): Promise<string> {
  const repeated = repeatedTags(rows);
  // A pending request to the same tag for the same amount: probably already asked.
  const validTags = [...new Set(rows.flatMap((r) => (r.valid ? [r.valid.tag] : [])))];
  const pending = new Set<string>();
  for (let i = 0; i < validTags.length; i += INSERT_CHUNK) {
    const found = await db
      .select({ tag: fundRequests.tag, amount: fundRequests.amount })
      .from(fundRequests)
      .where(and(eq(fundRequests.status, "pending"), inArray(fundRequests.tag, validTags.slice(i, i + INSERT_CHUNK))));
    for (const f of found) pending.add(`${f.tag.toLowerCase()}|${f.amount}`);
  }
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`campaign-drafts:${createdBy}`}, 0))`);
    const [drafts] = await tx
      .select({ n: sql<number>`count(*)::int` })
      .from(campaigns)
      .where(and(eq(campaigns.createdBy, createdBy), eq(campaigns.status, "draft")));
    if ((drafts?.n ?? 0) >= MAX_DRAFTS_PER_PERSON) throw new DraftLimitError(drafts?.n ?? 0);
    const [campaign] = await tx.insert(campaigns).values({ name, createdBy, senderId: createdBy }).returning({ id: campaigns.id });
    if (!campaign) throw new Error("campaign insert returned nothing");
    const values = rows.map((r) => {
      const warnings: string[] = [];
      if (r.valid && repeated.has(r.valid.tag.toLowerCase())) warnings.push("This tag appears more than once in the file.");
      if (r.valid && pending.has(`${r.valid.tag.toLowerCase()}|${r.valid.amount}`)) warnings.push("This tag already has a pending request for this amount.");
      return {
        campaignId: campaign.id,
        row: r.row,
        tag: r.valid?.tag ?? r.tag,
        amountText: r.amountText,
        amountNaira: r.valid?.amount ?? null,
        description: r.valid?.description ?? r.description,
        status: r.valid ? ("queued" as const) : ("invalid" as const),
        error: r.error,
        warning: warnings.length > 0 ? warnings.join(" ") : null,
      };
    });
    for (let i = 0; i < values.length; i += INSERT_CHUNK) await tx.insert(campaignRows).values(values.slice(i, i + INSERT_CHUNK));
    return campaign.id;
  });
}

export type TransitionOutcome = { ok: true; previousSender: string | null } | { ok: false; current: CampaignStatus | null };

/**
 * Moves a campaign's status as the transition allows (a conditional update: two clicks cannot both win).
 * Whoever starts or resumes it becomes its sender of record; a person's pause or resume clears the
 * reason of an automatic pause. Cancel skips only rows still queued: a claimed row is being sent.
 */
export async function transitionCampaign(db: Db, id: string, transition: Transition, by: string): Promise<TransitionOutcome> {
  if (!isUuid(id)) return { ok: false, current: null };
  return db.transaction(async (tx) => {
    const now = new Date();
    const [before] = await tx.select({ senderId: campaigns.senderId }).from(campaigns).where(eq(campaigns.id, id)).for("update");
    const [moved] = await tx
      .update(campaigns)
      .set({
        status: TRANSITIONS[transition].to,
        updatedAt: now,
        ...(transition === "start" ? { startedAt: now } : {}),
        ...(transition === "start" || transition === "resume" ? { senderId: by } : {}),
        ...(transition === "pause" || transition === "resume" ? { pausedReason: null } : {}),
        ...(transition === "cancel" ? { finishedAt: now } : {}),
      })
      .where(and(eq(campaigns.id, id), inArray(campaigns.status, [...TRANSITIONS[transition].from])))
      .returning({ id: campaigns.id });
    if (!moved) {
      const [row] = await tx.select({ status: campaigns.status }).from(campaigns).where(eq(campaigns.id, id));
      return { ok: false, current: row?.status ?? null };
    }
    if (transition === "cancel") {
      await tx
        .update(campaignRows)
        .set({ status: "skipped" })
        .where(and(eq(campaignRows.campaignId, id), eq(campaignRows.status, "queued")));
    }
    return { ok: true, previousSender: before?.senderId ?? null };
  });
}

/** Sending campaigns with nothing left queued or being sent are done. */
export async function finishDrainedCampaigns(db: Db): Promise<string[]> {
  const done = await db
    .update(campaigns)
    .set({ status: "done", finishedAt: new Date(), updatedAt: new Date() })
    .where(
      and(
        eq(campaigns.status, "sending"),
        sql`not exists (select 1 from ${campaignRows} r where r.campaign_id = ${campaigns.id} and r.status in ('queued', 'claimed'))`,
      ),
    )
    .returning({ id: campaigns.id });
  return done.map((d) => d.id);
}

export async function findCampaign(db: Db, id: string): Promise<CampaignRow | null> {
  if (!/^[0-9a-f-]{36}$/i.test(id)) return null;
  const [row] = await db.select().from(campaigns).where(eq(campaigns.id, id));
  return row ?? null;
}
