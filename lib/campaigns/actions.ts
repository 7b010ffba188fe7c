import "server-only";

import { auditActorOf, auditIpOf, requirePerson, type Actor } from "@/lib/actors/actor";
import { authorize } from "@/lib/actors/permissions";
import { writeAudit } from "@/lib/audit/write";
import type { Db } from "@/lib/db/client";
import { sendJob } from "@/lib/jobs/engine";

import { getCampaignView } from "./queries";
import { transitionCampaign } from "./repo";
import { campaignSendJob } from "./send.job";
import type { CampaignView } from "@/lib/client/campaigns/view";
import { TRANSITIONS, type Transition } from "@/lib/client/campaigns/transitions";

export type ActionOutcome = { ok: true; campaign: CampaignView | null } | { ok: false; current: string | null };

/**
 * A person's start, pause, resume or cancel of a campaign (docs/architecture.md "Actors": authorized for
 * `campaigns.write`): the move (lib/campaigns/transitions.ts), its audit row, the send job woken and the live event.
 * `current` is null when there is no such campaign. HTTP answers: lib/http/answers/campaigns.ts.
 */
export async function applyCampaignAction(db: Db, actor: Actor, id: string, transition: Transition): Promise<ActionOutcome> {
  authorize(actor, "campaigns.write");
  const person = requirePerson(actor);
  const outcome = await transitionCampaign(db, id, transition, person.id);
  if (!outcome.ok) return { ok: false, current: outcome.current };
  // Start and resume make the person its sender of record: the audit says whose name the rows go out under.
  const sender = transition === "start" || transition === "resume" ? { senderId: person.id, previousSenderId: outcome.previousSender } : undefined;
  await writeAudit(db, { action: TRANSITIONS[transition].audit, actor: auditActorOf(actor), target: id, detail: sender, ip: auditIpOf(actor) });
  // Sending starts (or continues) at once; the per-minute schedule would pick it up anyway.
  if (transition === "start" || transition === "resume") await sendJob(campaignSendJob, {});
  return { ok: true, campaign: await getCampaignView(db, id) };
}

/** Campaigns made already sending (a plan's period or its chase, lib/plans; their pages were told at the commit): the sender woken. */
export async function wakeCampaignSender(ids: readonly string[]): Promise<void> {
  if (ids.length === 0) return;
  await sendJob(campaignSendJob, {});
}
