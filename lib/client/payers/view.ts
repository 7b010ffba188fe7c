import type { CappedPage } from "@/lib/client/http/pager-links";
import type { LocalRequestStatus } from "@/lib/client/requests/constants";

// What GET /api/payers and GET /api/payers/:tag answer (docs/architecture.md "Payers and chasing"), shared by the routes and the pages.

export const PAYER_FILTERS = ["unanswered", "declined", "paid", "do-not-ask"] as const;
export type PayerFilter = (typeof PAYER_FILTERS)[number];

export const PAYER_SORTS = ["recent", "collected", "asked", "tag"] as const;
export type PayerSort = (typeof PAYER_SORTS)[number];

export interface PayerView {
  tag: string;
  name: string | null;
  asked: number;
  accepted: number;
  declined: number;
  unanswered: number;
  failed: number;
  /** The settled amount of their payments: a decimal naira string. */
  collected: string;
  payments: number;
  lastActivityAt: string | null;
  /** From asked to accepted or declined, the median over their answered requests; null when none. */
  medianAnswerSeconds: number | null;
  doNotAsk: boolean;
  /** Open second payments from them (duplicate_payment exceptions not yet resolved): shown "paid twice". */
  overpaid: number;
}

/** A page of payers; the count stops at 10,000 (`totalCapped`: more match, shown "10,000+"). */
export type PayerPage = CappedPage<PayerView>;

export interface DoNotAskMark {
  note: string;
  markedBy: string;
  markedAt: string;
}

export interface PayerRequestLine {
  id: string;
  requestId: string | null;
  amount: string;
  description: string;
  status: LocalRequestStatus;
  createdAt: string;
  decidedAt: string | null;
  campaign: { id: string; name: string } | null;
}

export interface PayerPaymentLine {
  uuid: string;
  amount: string;
  fees: string;
  settledAmount: string;
  description: string;
  verification: "unverified" | "verified" | "failed";
  /** Recorded by a person settling a lost payment notice: never verified. */
  recordedByHand: boolean;
  receivedAt: string;
}

export interface PayerDetail {
  payer: PayerView;
  /** From their latest payment; e-mail and phone masked for viewers; never the bvn. Null before any payment. */
  contact: { name: string; email: string | null; phone: string | null } | null;
  doNotAsk: DoNotAskMark | null;
  /** The last 50 of each, newest first. */
  requests: PayerRequestLine[];
  payments: PayerPaymentLine[];
  campaigns: { id: string; name: string; round: number }[];
}
