// Shapes shared by the sandbox's store, views and routes.
export type AmountUnit = "major" | "minor";

export type RequestStatus = "pending" | "accepted" | "declined";

export interface Party {
  name: string;
  tag: string;
}

export interface Consumer extends Party {
  uuid: string;
  email: string;
  phone: string;
  bvn: string;
}

export interface Wallet {
  name: string;
  mainWallet: boolean;
  /** Thousandths of a kobo, so fractional minor-unit balances stay exact. */
  balanceMilliKobo: bigint;
}

export interface FundRequest {
  id: number;
  /** As the caller sent it, in the configured amount unit. */
  amount: number;
  amountKobo: bigint;
  description: string;
  status: RequestStatus;
  requestedBy: Party;
  sentTo: Consumer;
  meta: Record<string, unknown>;
  createdAt: string;
  updatedAt: string;
  transactionUuid: string | null;
}

export interface Transaction {
  uuid: string;
  requestId: number;
  amount: number;
  amountKobo: bigint;
  feesKobo: bigint;
  settledKobo: bigint;
  description: string;
  customer: Consumer;
  /** Payments this customer has made, this one included. */
  frequency: number;
  createdAt: string;
  /** Set through the control API to make the verify host disagree with the webhook. */
  verifyAmountOverride: number | null;
}
