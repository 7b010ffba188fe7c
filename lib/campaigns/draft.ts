import "server-only";

import { auditActorOf, auditIpOf, requirePerson, type Actor } from "@/lib/actors/actor";
import { authorize } from "@/lib/actors/permissions";
import { writeAudit } from "@/lib/audit/write";
import type { CampaignView } from "@/lib/client/campaigns/view";
import type { Db } from "@/lib/db/client";

import type { ParsedRow } from "./parse";
import { getCampaignView } from "./queries";
import { createCampaign, DraftLimitError } from "./repo";

export type DraftOutcome =
  /** The person already keeps the most drafts one person can. */
  { kind: "draft_limit"; drafts: number } | { kind: "drafted"; id: string; campaign: CampaignView | null };

/**
 * An uploaded file becomes a draft campaign under the actor's person, every row checked (docs/architecture.md "A
 * campaign" and "Actors"), with its audit row: the name, how many rows and how many invalid. The row is written
 * after the draft's transaction, as its count of invalid rows is the draft's own (do-not-ask marks included).
 */
export async function draftCampaign(db: Db, actor: Actor, input: { name: string; rows: readonly ParsedRow[] }): Promise<DraftOutcome> {
  authorize(actor, "campaigns.write");
  const person = requirePerson(actor);
  let id: string;
  try {
    id = await createCampaign(db, input.name, input.rows, person.id);
  } catch (error) {
    if (error instanceof DraftLimitError) return { kind: "draft_limit", drafts: error.drafts };
    throw error;
  }
  const campaign = await getCampaignView(db, id);
  await writeAudit(db, {
    action: "campaign.uploaded",
    actor: auditActorOf(actor),
    target: id,
    detail: { name: input.name, rows: input.rows.length, invalid: campaign?.counts.invalid ?? 0 },
    ip: auditIpOf(actor),
  });
  return { kind: "drafted", id, campaign };
}
