import "server-only";

import { writeAudit } from "@/lib/audit/write";
import type { Db } from "@/lib/db/client";
import { sendJob } from "@/lib/jobs/engine";
import { publish } from "@/lib/live/bus";

import { getCampaignView } from "./queries";
import { transitionCampaign } from "./repo";
import { campaignSendJob } from "./send.job";
import type { CampaignView } from "@/lib/client/campaigns/view";
import { TRANSITIONS, type Transition } from "@/lib/client/campaigns/transitions";

export type ActionOutcome = { ok: true; campaign: CampaignView | null } | { ok: false; current: string | null };

/**
 * A person's start, pause, resume or cancel of a campaign: the move (lib/campaigns/transitions.ts), its
 * audit row, the send job woken and the live event. `current` is null when there is no such campaign.
 * HTTP answers: app/api/campaigns/[id]/campaign-action.ts.
 */
export async function applyCampaignAction(
  db: Db,
  id: string,
  transition: Transition,
  actor: { id: string; email: string },
  ip: string,
): Promise<ActionOutcome> {
  const outcome = await transitionCampaign(db, id, transition, actor.id);
  if (!outcome.ok) return { ok: false, current: outcome.current };
  // Start and resume make the person its sender of record: the audit says whose name the rows go out under.
  const sender = transition === "start" || transition === "resume" ? { senderId: actor.id, previousSenderId: outcome.previousSender } : undefined;
  await writeAudit(db, { action: TRANSITIONS[transition].audit, actor, target: id, detail: sender, ip });
  // Sending starts (or continues) at once; the per-minute schedule would pick it up anyway.
  if (transition === "start" || transition === "resume") await sendJob(campaignSendJob, {});
  publish({ type: "campaign.progress", campaignId: id });
  return { ok: true, campaign: await getCampaignView(db, id) };
}

/** Campaigns made already sending (a plan's period or its chase, lib/plans): the sender woken, their pages told. */
export async function announceStartedCampaigns(ids: readonly string[]): Promise<void> {
  if (ids.length === 0) return;
  for (const id of ids) publish({ type: "campaign.progress", campaignId: id });
  await sendJob(campaignSendJob, {});
}
