// The campaign state machine, once (docs/architecture.md, "Campaigns"): what each person's action may move a
// campaign from and to, how it is audited, and what people are told. The repository, the routes and the buttons read it.
import type { AuditAction } from "@/lib/audit/write";

import type { CampaignStatus } from "./view";

export type Transition = "start" | "pause" | "resume" | "cancel";

export interface TransitionRule {
  from: readonly CampaignStatus[];
  to: CampaignStatus;
  audit: AuditAction;
  /** Said once it happened. */
  done: string;
  /** Said when the campaign's status does not allow it (followed by its status). */
  refused: string;
}

export const TRANSITIONS: Record<Transition, TransitionRule> = {
  start: {
    from: ["draft"],
    to: "sending",
    audit: "campaign.started",
    done: "Campaign started: rows are being sent at the budget's pace.",
    refused: "Only a draft campaign can be started",
  },
  pause: {
    from: ["sending"],
    to: "paused",
    audit: "campaign.paused",
    done: "Campaign paused: no further rows are sent until you resume.",
    refused: "Only a campaign that is sending can be paused",
  },
  resume: {
    from: ["paused"],
    to: "sending",
    audit: "campaign.resumed",
    done: "Campaign resumed: the rows are being sent again.",
    refused: "Only a paused campaign can be resumed",
  },
  cancel: {
    from: ["draft", "sending", "paused"],
    to: "cancelled",
    audit: "campaign.cancelled",
    done: "Campaign cancelled: rows not yet being sent are skipped.",
    refused: "A finished or cancelled campaign cannot be cancelled",
  },
};

/** The actions a campaign in `status` allows, in the order the buttons show them. */
export function allowedTransitions(status: CampaignStatus): Transition[] {
  return (Object.keys(TRANSITIONS) as Transition[]).filter((t) => TRANSITIONS[t].from.includes(status));
}
