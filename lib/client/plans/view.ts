// What the plan routes answer and the plan pages show (docs/architecture.md "Plans"). Money as decimal naira strings, times UTC ISO.
import type { CampaignView } from "@/lib/client/campaigns/view";

import type { Frequency } from "./schedule";

export type PlanStatus = "active" | "paused" | "ended";

export interface PlanPeriodView {
  period: string;
  dueAt: string;
  /** made: its campaign exists; missed: due while no server ran, too late to send by itself (run it by hand). */
  status: "made" | "missed";
  campaignId: string | null;
  counts: CampaignView["counts"] | null;
  amounts: CampaignView["amounts"] | null;
  chaseRounds: number;
}

export interface PlanMemberView {
  row: number;
  tag: string;
  amount: string | null;
  description: string;
  /** Why the member cannot be asked (bad input, a repeated tag); null when they can. */
  error: string | null;
  doNotAsk: boolean;
}

export interface PlanView {
  id: string;
  name: string;
  status: PlanStatus;
  frequency: Frequency;
  day: number;
  sendAt: string;
  timeZone: string;
  startsOn: string;
  endsOn: string | null;
  descriptionTemplate: string;
  chase: { afterHours: number; times: number; include: string[] } | null;
  nextRunAt: string | null;
  nextPeriod: string | null;
  /** Members who will be asked next period (valid and not removed). */
  members: number;
  invalidMembers: number;
  createdAt: string;
  periods: PlanPeriodView[];
  /**
   * One page of the roster now (`ROSTER_PAGE_SIZE` members, `?members=` in the page's URL and the route's), in row
   * order: members who will be asked and those marked invalid (removed ones left out).
   */
  roster: PlanMemberView[];
  rosterPage: number;
  rosterPageSize: number;
  /** Every member on the roster now, valid and invalid (removed ones left out): what the roster's pages hold. */
  rosterTotal: number;
  /** Who a run would ask now (valid, not on the do-not-ask list, with an amount) and for how much in all, over the whole roster. */
  askable: { count: number; amount: string };
}

export interface PlanListItem {
  id: string;
  name: string;
  status: PlanStatus;
  frequency: Frequency;
  members: number;
  nextRunAt: string | null;
  lastPeriod: string | null;
}

/** A cell's outcome, best first: the best over a period's rounds is shown. */
export const CELL_STATUSES = ["paid", "pending", "declined", "failed", "skipped", "not_asked"] as const;
export type CellStatus = (typeof CELL_STATUSES)[number];

export const CELL_WORDS: Record<CellStatus, string> = {
  paid: "Paid",
  pending: "Pending",
  declined: "Declined",
  failed: "Failed",
  skipped: "Skipped",
  not_asked: "Not asked",
};

export interface BoardCell {
  period: string;
  status: CellStatus;
  amount: string | null;
  requestId: string | null;
}

export interface BoardMember {
  tag: string;
  name: string | null;
  /** The amount they are asked now (null for a removed member). */
  amount: string | null;
  /** Asked in the shown periods and not paid (pending, declined, failed). */
  owing: string;
  removed: boolean;
  cells: BoardCell[];
}

export interface BoardTotal {
  period: string;
  asked: string;
  collected: string;
  /** Share of the asked amount that was paid, 0–1 (null when nothing was asked). */
  rate: number | null;
}

/** One page of the board's members; `totals` are over every member, `total` counts the members shown (after the filter). */
export interface BoardView {
  periods: string[];
  members: BoardMember[];
  totals: BoardTotal[];
  page: number;
  pageSize: number;
  total: number;
}

/** Members on one page of the dues board (docs/architecture.md "Plans"): its size stays the same however large the plan. */
export const BOARD_PAGE_SIZE = 50;

/** Members on one page of a plan's roster (docs/architecture.md "Plans"): the plan's page stays small however large the plan. */
export const ROSTER_PAGE_SIZE = 50;

export const PLAN_PAGE_SIZE = 25;
