// The campaign shapes of the API and the pages (camelCase; money as decimal naira strings).

export const CAMPAIGN_STATUSES = ["draft", "sending", "paused", "done", "cancelled"] as const;
export type CampaignStatus = (typeof CAMPAIGN_STATUSES)[number];

/** A row as people see it: a sent row shows its request's status (sent = pending at the service). */
export const ROW_STATUSES = ["invalid", "queued", "sent", "accepted", "declined", "failed", "unknown", "skipped"] as const;
export type RowStatus = (typeof ROW_STATUSES)[number];
/**
 * The rows filter also takes "warning": rows flagged (repeated tag, or a pending request for the same amount), and
 * "not_paid": people asked who have not paid (still to answer, declined, or their request failed).
 */
export const ROW_FILTERS = [...ROW_STATUSES, "warning", "not_paid"] as const;
export type RowFilter = (typeof ROW_FILTERS)[number];

export interface CampaignCounts {
  total: number;
  invalid: number;
  queued: number;
  sent: number;
  accepted: number;
  declined: number;
  failed: number;
  /** Sent when its process died mid-call: not sent again, settled by its payment. */
  unknown: number;
  skipped: number;
}

/** Why an ask-again round (or an upload) left a row out (docs/architecture.md "Payers and chasing"). */
export const LEFT_OUT_REASONS = [
  "paid",
  "do_not_ask",
  "cooling_down",
  "asked_enough",
  "pending",
  "no_such_tag",
  "too_recent",
  "not_chosen",
  "outcome_unknown",
] as const;
export type LeftOutReason = (typeof LEFT_OUT_REASONS)[number];

export const LEFT_OUT_WORDS: Record<LeftOutReason, string> = {
  paid: "already paid in this campaign family",
  do_not_ask: "asked not to be asked",
  cooling_down: "declined recently (cooling down)",
  asked_enough: "asked the most times allowed in this family",
  pending: "still has an open request from this family",
  no_such_tag: "the service said this tag does not exist",
  too_recent: "asked too recently to count as unanswered",
  not_chosen: "not in the states chosen for this round",
  outcome_unknown: "the last send was cut off, so whether they were asked is unknown",
};

/** A campaign and its ask-again rounds: who in the family has paid, counted once per tag. */
export interface CampaignFamily {
  rounds: { id: string; name: string; round: number; status: CampaignStatus }[];
  /** Distinct tags with an accepted request anywhere in the family. */
  paid: number;
  /** Distinct tags asked anywhere in the family. */
  asked: number;
  /** This campaign's rows still to send whose person has an open request in the family: they will hold two. */
  stillOpen: number;
}

export interface CampaignView {
  id: string;
  name: string;
  /** The campaign this round chases (null for a first campaign), and its round (1 for a first campaign). */
  parentId: string | null;
  round: number;
  /** The family's rounds and combined paid count (on the one-campaign read; null in lists). */
  family: CampaignFamily | null;
  status: CampaignStatus;
  createdBy: string | null;
  /** The sender of record's name: rows go out under this account (the uploader, then whoever started or resumed it). */
  sentBy: string | null;
  /** Why the campaign paused by itself (its sender can no longer send); null unless paused that way. */
  pausedReason: string | null;
  createdAt: string;
  startedAt: string | null;
  finishedAt: string | null;
  counts: CampaignCounts;
  /**
   * Asked: the rows that are or will be asked (not invalid, not skipped: a discarded draft asked nothing); accepted:
   * the rows accepted; collected: the settled amount of their payments, after fees; outstanding: the rows still waiting.
   */
  amounts: { asked: string; accepted: string; collected: string; outstanding: string };
  /** Rows flagged with a warning (still sendable). */
  warnings: number;
  /** Seconds left for the queued rows at the background budget's pace; null when nothing is left to send. */
  etaSeconds: number | null;
}

export interface CampaignRowView {
  row: number;
  /** Where the row stands in its file as a spreadsheet numbers it (the header is line 1); a round's or period's own row. */
  line: number;
  tag: string;
  amount: string;
  description: string;
  /** The business's own reference from the file's `reference` column; null when none. */
  businessReference: string | null;
  status: RowStatus;
  requestId: string | null;
  error: string | null;
  /** Why the row was left out by policy (an invalid row); null for bad input and every other row. */
  leftOut: LeftOutReason | null;
  warning: string | null;
  /** The payment that settled the row's request, if any: who paid, how much (paid, and settled after fees), when (UTC ISO). */
  paidBy: string | null;
  paidAmount: string | null;
  settledAmount: string | null;
  paidAt: string | null;
}

export const CAMPAIGN_PAGE_SIZE = 25;
export const CAMPAIGN_ROWS_PAGE_SIZE = 50;

/** A draft cancelled before it was started: nothing was asked, and it says so rather than showing a full bar. */
export function isDiscarded(c: Pick<CampaignView, "status" | "startedAt">): boolean {
  return c.status === "cancelled" && c.startedAt === null;
}
