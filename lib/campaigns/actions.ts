import "server-only";

import { writeAudit } from "@/lib/audit/write";
import { withStaff } from "@/lib/auth/guard";
import { SENDERS } from "@/lib/client/auth/roles";
import { conflict, notFound } from "@/lib/http/api-error";
import { ok } from "@/lib/http/envelope";
import { sendJob } from "@/lib/jobs/engine";
import { publish } from "@/lib/live/bus";

import { getCampaignView } from "./queries";
import { transitionCampaign } from "./repo";
import { campaignSendJob } from "./send.job";
import { TRANSITIONS, type Transition } from "@/lib/client/campaigns/transitions";

/** The route handler of POST /api/campaigns/:id/<transition> (admin, operator), audited. */
export function campaignAction(transition: Transition) {
  return withStaff<{ id: string }>(SENDERS, async (_request, { db, staff, params, ip }) => {
    const outcome = await transitionCampaign(db, params.id, transition, staff.id);
    if (!outcome.ok) {
      if (outcome.current === null) throw notFound("No such campaign.");
      throw conflict(`${TRANSITIONS[transition].refused}; this one is ${outcome.current}.`, { status: outcome.current });
    }
    // Start and resume make the person its sender of record: the audit says whose name the rows go out under.
    const sender = transition === "start" || transition === "resume" ? { senderId: staff.id, previousSenderId: outcome.previousSender } : undefined;
    await writeAudit(db, { action: TRANSITIONS[transition].audit, actor: staff, target: params.id, detail: sender, ip });
    // Sending starts (or continues) at once; the per-minute schedule would pick it up anyway.
    if (transition === "start" || transition === "resume") await sendJob(campaignSendJob, {});
    publish({ type: "campaign.progress", campaignId: params.id });
    return ok(await getCampaignView(db, params.id), TRANSITIONS[transition].done);
  });
}
