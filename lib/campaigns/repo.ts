import "server-only";

import { and, eq, inArray, sql } from "drizzle-orm";

import type { Db } from "@/lib/db/client";
import { campaignRows, campaigns, fundRequests, type CampaignRow } from "@/lib/db/schema";

import { repeatedTags, type ParsedRow } from "./parse";
import type { CampaignStatus } from "./view";

const INSERT_CHUNK = 1_000;

/** A draft campaign and all its rows (invalid ones with their reason, flagged ones with a warning), in one transaction. */
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
    const [campaign] = await tx.insert(campaigns).values({ name, createdBy }).returning({ id: campaigns.id });
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

export type Transition = "start" | "pause" | "resume" | "cancel";

const FROM: Record<Transition, readonly CampaignStatus[]> = {
  start: ["draft"],
  pause: ["sending"],
  resume: ["paused"],
  cancel: ["draft", "sending", "paused"],
};
const TO: Record<Transition, CampaignStatus> = { start: "sending", pause: "paused", resume: "sending", cancel: "cancelled" };

/** Moves a campaign's status as the transition allows (a conditional update: two clicks cannot both win). */
export async function transitionCampaign(db: Db, id: string, transition: Transition): Promise<{ ok: true } | { ok: false; current: CampaignStatus | null }> {
  return db.transaction(async (tx) => {
    const now = new Date();
    const [moved] = await tx
      .update(campaigns)
      .set({
        status: TO[transition],
        updatedAt: now,
        ...(transition === "start" ? { startedAt: now } : {}),
        ...(transition === "cancel" ? { finishedAt: now } : {}),
      })
      .where(and(eq(campaigns.id, id), inArray(campaigns.status, [...FROM[transition]])))
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
    return { ok: true };
  });
}

/** Sending campaigns with nothing left queued are done. */
export async function finishDrainedCampaigns(db: Db): Promise<string[]> {
  const done = await db
    .update(campaigns)
    .set({ status: "done", finishedAt: new Date(), updatedAt: new Date() })
    .where(
      and(eq(campaigns.status, "sending"), sql`not exists (select 1 from ${campaignRows} r where r.campaign_id = ${campaigns.id} and r.status = 'queued')`),
    )
    .returning({ id: campaigns.id });
  return done.map((d) => d.id);
}

export async function findCampaign(db: Db, id: string): Promise<CampaignRow | null> {
  if (!/^[0-9a-f-]{36}$/i.test(id)) return null;
  const [row] = await db.select().from(campaigns).where(eq(campaigns.id, id));
  return row ?? null;
}
