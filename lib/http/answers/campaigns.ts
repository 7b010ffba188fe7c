import "server-only";

import { TRANSITIONS, type Transition } from "@/lib/client/campaigns/transitions";
import type { CampaignView } from "@/lib/client/campaigns/view";
import { conflict, notFound } from "@/lib/http/api-error";

import type { ActionOutcome } from "@/lib/campaigns/actions";
import type { DraftOutcome } from "@/lib/campaigns/draft";
import { MAX_DRAFTS_PER_PERSON } from "@/lib/campaigns/repo";

// A campaign use case's outcome as an answer, whichever door asked (the dashboard's /api/campaigns routes and
// /api/v1/campaigns): one mapping of refusals to statuses and codes (docs/architecture.md "Error codes").

/** What a new draft's answer says (POST /api/campaigns). */
export const DRAFTED = "Campaign drafted: check the preview, then start it";

/**
 * The drafted campaign, or the 409 of a person already keeping the most drafts. `again` is what to do once one is
 * started or discarded: upload the file again (the dashboard), send the rows again (the API).
 */
export function draftedCampaign(outcome: DraftOutcome, again = "upload this file again"): { id: string; campaign: CampaignView | null } {
  if (outcome.kind === "draft_limit") {
    throw conflict(
      `You already have ${MAX_DRAFTS_PER_PERSON} draft campaigns, the most one person can keep. Open one under Campaigns and start it or discard it (Discard draft), then ${again}.`,
      { drafts: outcome.drafts, maxDrafts: MAX_DRAFTS_PER_PERSON },
    );
  }
  return { id: outcome.id, campaign: outcome.campaign };
}

/** The campaign after a start, pause, resume or cancel; else a 404 (no such campaign) or a 409 naming its status. */
export function movedCampaign(outcome: ActionOutcome, transition: Transition): CampaignView | null {
  if (!outcome.ok) {
    if (outcome.current === null) throw notFound("No such campaign.");
    throw conflict(`${TRANSITIONS[transition].refused}; this one is ${outcome.current}.`, { status: outcome.current });
  }
  return outcome.campaign;
}

/** The campaign an API answer carries: one gone by the time it is read is a 404, never a null the document does not allow. */
export function presentCampaign(view: CampaignView | null): CampaignView {
  if (!view) throw notFound("No such campaign.");
  return view;
}
