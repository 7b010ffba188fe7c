import type { PayPageAmount } from "./schemas";

// What the dashboard and the public page are shown of a pay page (docs/architecture.md "Pay pages").

/** `off`: turned off; `expired`: past its expiry; `full`: its most payments reached. Only `open` sends. */
export type PayPageState = "open" | "off" | "expired" | "full";

/** What the public page says: a page's state, or `today_full` when it has taken its daily limit of submissions. */
export type PublicPageState = PayPageState | "today_full";

export interface PayPageCounts {
  views: number;
  submissions: number;
  /** Requests sent and taken by the service (one it refused, such as an unknown tag's, is not counted). */
  requests: number;
  accepted: number;
  declined: number;
  /** Naira, two decimals, of the payments the page's requests received. */
  collected: string;
  /** accepted ÷ submissions, 0–1; null before the first submission. */
  conversion: number | null;
}

export interface PayPageView {
  id: string;
  slug: string;
  /** The public address: APP_URL/pay/<slug>. */
  url: string;
  title: string;
  description: string;
  amount: PayPageAmount;
  fields: { label: string; required: boolean; reference: boolean }[];
  plan: { id: string; name: string } | null;
  active: boolean;
  expiresAt: string | null;
  maxPayments: number | null;
  successMessage: string;
  dailyLimit: number;
  state: PayPageState;
  counts: PayPageCounts;
  createdBy: { id: string; name: string } | null;
  createdAt: string;
  updatedAt: string;
}

/** What the public page shows: nothing about anyone, only the page. */
export interface PublicPayPage {
  slug: string;
  businessName: string;
  title: string;
  description: string;
  amount: PayPageAmount;
  fields: { label: string; required: boolean }[];
  state: PublicPageState;
}

/** The payer's status link: `waiting` until the request is accepted (paid) or declined. */
export interface PayStatusView {
  state: "waiting" | "paid" | "declined";
  title: string;
  businessName: string;
  /** Naira, two decimals. */
  amount: string;
  /** As the service formats money ("₦5,000.00"). */
  amountText: string;
  successMessage: string | null;
  /** A plan page's plan, which paying joins (named once paid); null for any other page. */
  plan: string | null;
}
