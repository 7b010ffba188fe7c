import "server-only";

import { writeAudit, type AuditAction } from "@/lib/audit/write";
import { withStaff } from "@/lib/auth/guard";
import { SENDERS } from "@/lib/auth/roles";
import { conflict, notFound } from "@/lib/http/api-error";
import { ok } from "@/lib/http/envelope";
import { sendJob } from "@/lib/jobs/engine";
import { publish } from "@/lib/live/bus";

import { getCampaignView } from "./queries";
import { transitionCampaign, type Transition } from "./repo";
import { campaignSendJob } from "./send.job";

const AUDIT: Record<Transition, AuditAction> = {
  start: "campaign.started",
  pause: "campaign.paused",
  resume: "campaign.resumed",
  cancel: "campaign.cancelled",
};

const DONE: Record<Transition, string> = {
  start: "Campaign started: rows are being sent at the budget's pace",
  pause: "Campaign paused: no further rows are sent until you resume",
  resume: "Campaign resumed",
  cancel: "Campaign cancelled: rows not yet being sent are skipped",
};

const REFUSED: Record<Transition, string> = {
  start: "Only a draft campaign can be started",
  pause: "Only a campaign that is sending can be paused",
  resume: "Only a paused campaign can be resumed",
  cancel: "A finished or cancelled campaign cannot be cancelled",
};

/** The route handler of POST /api/campaigns/:id/<transition> (admin, operator), audited. */
export function campaignAction(transition: Transition) {
  return withStaff<{ id: string }>(SENDERS, async (_request, { db, staff, params, ip }) => {
    const outcome = await transitionCampaign(db, params.id, transition, staff.id);
    if (!outcome.ok) {
      if (outcome.current === null) throw notFound("No such campaign.");
      throw conflict(`${REFUSED[transition]}; this one is ${outcome.current}.`, { status: outcome.current });
    }
    // Start and resume make the person its sender of record: the audit says whose name the rows go out under.
    const sender = transition === "start" || transition === "resume" ? { senderId: staff.id, previousSenderId: outcome.previousSender } : undefined;
    await writeAudit(db, { action: AUDIT[transition], actor: staff, target: params.id, detail: sender, ip });
    // Sending starts (or continues) at once; the per-minute schedule would pick it up anyway.
    if (transition === "start" || transition === "resume") await sendJob(campaignSendJob, {});
    publish({ type: "campaign.progress", id: params.id });
    return ok(await getCampaignView(db, params.id), DONE[transition]);
  });
}
