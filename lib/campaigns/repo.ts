import "server-only";

import { and, eq, inArray, sql } from "drizzle-orm";

import type { Db } from "@/lib/db/client";
import { campaignRows, campaigns, fundRequests, type CampaignRow } from "@/lib/db/schema";
import { isUuid } from "@/lib/http/route-params";

import { repeatedTags, type ParsedRow } from "./parse";
import type { CampaignStatus, LeftOutReason } from "@/lib/client/campaigns/view";
import { payerKey } from "@/lib/client/payers/tag";
import { getConfig } from "@/lib/config";
import { doNotAskMarks, doNotAskMessage } from "@/lib/payers/do-not-ask";
import { TRANSITIONS, type Transition } from "@/lib/client/campaigns/transitions";
import { appendEvent } from "@/lib/events/append";
import { announce } from "@/lib/live/notify";

import { getCampaignView } from "./queries";

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

/** The campaign already has a round waiting as a draft: a second would ask the same people twice. */
export class RoundDraftExistsError extends Error {
  constructor(readonly draftId: string) {
    super(`a round of this campaign is already a draft (${draftId})`);
    this.name = "RoundDraftExistsError";
  }
}

/** Where an ask-again round comes from: the campaign it chases, the family's first campaign and its round. */
export interface CampaignOrigin {
  parentId: string;
  familyId: string;
  round: number;
  /** The person chose to ask people still cooling down, for this round only. */
  cooldownOverride?: boolean;
}

/** A row an ask-again round leaves out by policy: kept as an invalid row with its reason, so the preview shows it. */
export interface LeftOutRow {
  row: number;
  tag: string;
  amount: string;
  description: string;
  businessReference?: string | null;
  reason: LeftOutReason;
  message: string;
}

export interface CreateOptions {
  origin?: CampaignOrigin;
  leftOut?: readonly LeftOutRow[];
  /** A plan's period campaign (lib/plans/periods.ts): made already sending, by the clock or a person's run. */
  plan?: { planId: string; period: string };
  /** Made `sending` at once (a plan's period or its chase): no draft, so neither draft rule applies. */
  start?: boolean;
  /** Runs in the campaign's transaction once it is inserted; throwing undoes the campaign (a period's claim). */
  inTransaction?: (tx: Db, campaignId: string) => Promise<void>;
}

/**
 * A draft campaign and all its rows (invalid ones with their reason, flagged ones with a warning), in one
 * transaction; its uploader is its first sender of record. The uploader's drafts are counted under a
 * transaction-scoped advisory lock on their id, so concurrent uploads cannot pass the cap together. A tag marked
 * do-not-ask becomes an invalid row saying who marked it (docs/architecture.md "Payers and chasing").
 */
export async function createCampaign(db: Db, name: string, rows: readonly ParsedRow[], createdBy: string, options: CreateOptions = {}): Promise<string> {
  const marks = await doNotAskMarks(
    db,
    rows.flatMap((r) => (r.valid ? [r.valid.tag] : [])),
  );
  const { timeZone } = getConfig();
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
    const origin = options.origin;
    if (!options.start) {
      await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`campaign-drafts:${createdBy}`}, 0))`);
      const [drafts] = await tx
        .select({ n: sql<number>`count(*)::int` })
        .from(campaigns)
        .where(and(eq(campaigns.createdBy, createdBy), eq(campaigns.status, "draft")));
      if ((drafts?.n ?? 0) >= MAX_DRAFTS_PER_PERSON) throw new DraftLimitError(drafts?.n ?? 0);
    }
    if (origin && !options.start) {
      // One draft round a campaign at a time, whoever asks: checked under the family's lock, so two asks cannot both pass.
      await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`campaign-family:${origin.familyId}`}, 0))`);
      const [waiting] = await tx
        .select({ id: campaigns.id })
        .from(campaigns)
        .where(and(eq(campaigns.parentId, origin.parentId), eq(campaigns.status, "draft")))
        .limit(1);
      if (waiting) throw new RoundDraftExistsError(waiting.id);
    }
    const [campaign] = await tx
      .insert(campaigns)
      .values({
        name,
        createdBy,
        senderId: createdBy,
        parentId: origin?.parentId ?? null,
        familyId: origin?.familyId ?? null,
        round: origin?.round ?? 1,
        cooldownOverride: origin?.cooldownOverride ?? false,
        planId: options.plan?.planId ?? null,
        period: options.plan?.period ?? null,
        ...(options.start ? { status: "sending" as const, startedAt: new Date() } : {}),
      })
      .returning({ id: campaigns.id });
    if (!campaign) throw new Error("campaign insert returned nothing");
    await options.inTransaction?.(tx, campaign.id);
    const values = rows.map((r) => {
      const mark = r.valid ? marks.get(payerKey(r.valid.tag)) : undefined;
      if (r.valid && mark) {
        return {
          campaignId: campaign.id,
          row: r.row,
          tag: r.valid.tag,
          amountText: r.amountText,
          amountNaira: r.valid.amount,
          description: r.valid.description,
          businessReference: r.valid.businessReference ?? null,
          status: "invalid" as const,
          error: doNotAskMessage(mark, timeZone),
          leftOut: "do_not_ask" as LeftOutReason | null,
          warning: null,
        };
      }
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
        businessReference: r.valid?.businessReference ?? r.businessReference ?? null,
        status: r.valid ? ("queued" as const) : ("invalid" as const),
        error: r.error,
        leftOut: null,
        warning: warnings.length > 0 ? warnings.join(" ") : null,
      };
    });
    for (const l of options.leftOut ?? []) {
      values.push({
        campaignId: campaign.id,
        row: l.row,
        tag: l.tag,
        amountText: l.amount,
        amountNaira: l.amount,
        description: l.description,
        businessReference: l.businessReference ?? null,
        status: "invalid" as const,
        error: l.message,
        leftOut: l.reason,
        warning: null,
      });
    }
    for (let i = 0; i < values.length; i += INSERT_CHUNK) await tx.insert(campaignRows).values(values.slice(i, i + INSERT_CHUNK));
    // Made already sending (a plan's period, its chase): started with its rows, in this transaction.
    if (options.start) {
      await appendCampaignEvent(tx, "campaign.started", campaign.id);
      await announce(tx, { type: "campaign.progress", campaignId: campaign.id });
    }
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
    // A start is `campaign.started`; a cancel ends it, so it is `campaign.finished` (status cancelled).
    if (transition === "start") await appendCampaignEvent(tx, "campaign.started", id);
    if (transition === "cancel") await appendCampaignEvent(tx, "campaign.finished", id);
    await announce(tx, { type: "campaign.progress", campaignId: id });
    return { ok: true, previousSender: before?.senderId ?? null };
  });
}

/** Sending campaigns with nothing left queued or being sent are done. */
export async function finishDrainedCampaigns(db: Db): Promise<string[]> {
  return db.transaction(async (tx) => {
    const done = await tx
      .update(campaigns)
      .set({ status: "done", finishedAt: new Date(), updatedAt: new Date() })
      .where(
        and(
          eq(campaigns.status, "sending"),
          sql`not exists (select 1 from ${campaignRows} r where r.campaign_id = ${campaigns.id} and r.status in ('queued', 'claimed'))`,
        ),
      )
      .returning({ id: campaigns.id });
    for (const d of done) await appendCampaignEvent(tx, "campaign.finished", d.id);
    await announce(tx, ...done.map((d) => ({ type: "campaign.progress" as const, campaignId: d.id })));
    return done.map((d) => d.id);
  });
}

/** The campaign's event with its public shape as it stands in `tx` (docs/architecture.md "Events"). */
async function appendCampaignEvent(tx: Db, type: "campaign.started" | "campaign.finished", id: string): Promise<void> {
  const view = await getCampaignView(tx, id);
  if (view) await appendEvent(tx, type, view);
}

export async function findCampaign(db: Db, id: string): Promise<CampaignRow | null> {
  if (!/^[0-9a-f-]{36}$/i.test(id)) return null;
  const [row] = await db.select().from(campaigns).where(eq(campaigns.id, id));
  return row ?? null;
}

/**
 * A request a pay page sent for a plan's current period, recorded as a row of that period's campaign (numbered after
 * its last), so the dues board counts it as the period's request (docs/architecture.md "Pay pages").
 */
export async function appendSentRow(
  db: Db,
  campaignId: string,
  row: { tag: string; amount: string; description: string; businessReference: string | null; fundRequestId: string },
): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.execute(sql`select id from campaigns where id = ${campaignId}::uuid for update`);
    const [last] = await tx
      .select({ row: sql<number>`coalesce(max(${campaignRows.row}), 0)::int` })
      .from(campaignRows)
      .where(eq(campaignRows.campaignId, campaignId));
    await tx
      .insert(campaignRows)
      .values({
        campaignId,
        row: (last?.row ?? 0) + 1,
        tag: row.tag,
        amountText: row.amount,
        amountNaira: row.amount,
        description: row.description,
        businessReference: row.businessReference,
        status: "sent",
        fundRequestId: row.fundRequestId,
      })
      .onConflictDoNothing({ target: campaignRows.fundRequestId });
  });
}
