// Wire shapes of the interface (2.2–2.4 and the verify answer), built from the store.
import { koboToAmount } from "./amounts";
import { fromScaled } from "./decimal";
import { formatBalance } from "./format";
import { CURRENCY } from "./state";
import type { AmountUnit, FundRequest, Transaction, Wallet } from "./types";

export const PAYMENT_EVENT = "peer-transfer.success";

export function fundRequestView(r: FundRequest) {
  return {
    request_id: String(r.id),
    description: r.description,
    amount: r.amount,
    request_status: r.status,
    requested_by: { name: r.requestedBy.name, tag: r.requestedBy.tag },
    requested_sent_to: { name: r.sentTo.name, tag: r.sentTo.tag },
    meta: r.meta,
    created_at: r.createdAt,
    updated_at: r.updatedAt,
  };
}

export function balanceView(wallets: readonly Wallet[]) {
  const total = wallets.reduce((sum, w) => sum + w.balanceMilliKobo, 0n);
  return {
    total_balance: fromScaled(total, 3),
    wallets: wallets.map((w) => {
      const balance = fromScaled(w.balanceMilliKobo, 3);
      return { name: w.name, main_wallet: w.mainWallet, balance, formatted_balance: formatBalance(CURRENCY, balance) };
    }),
  };
}

export function avatarUrl(apiUrl: string, tag: string): string {
  return `${apiUrl}/avatars/${encodeURIComponent(tag)}.svg`;
}

export function paymentEvent(tx: Transaction, unit: AmountUnit, apiUrl: string) {
  const c = tx.customer;
  return {
    type: PAYMENT_EVENT,
    uuid: tx.uuid,
    amount: tx.amount,
    actual_amount: tx.amount,
    settled_amount: koboToAmount(tx.settledKobo, unit),
    description: tx.description,
    fees: koboToAmount(tx.feesKobo, unit),
    paypoint: false,
    customer: {
      uuid: c.uuid,
      avatar: avatarUrl(apiUrl, c.tag),
      name: c.name,
      email: c.email,
      phone: c.phone,
      bvn: c.bvn,
      tag: c.tag,
      frequency: tx.frequency,
    },
    meta: { peer_tag: c.tag, name: c.name },
  };
}

export function verifiedTransaction(tx: Transaction, unit: AmountUnit) {
  const c = tx.customer;
  return {
    uuid: tx.uuid,
    type: PAYMENT_EVENT,
    status: "success",
    amount: tx.verifyAmountOverride ?? tx.amount,
    actual_amount: tx.amount,
    settled_amount: koboToAmount(tx.settledKobo, unit),
    fees: koboToAmount(tx.feesKobo, unit),
    description: tx.description,
    currency: CURRENCY,
    customer: { uuid: c.uuid, name: c.name, tag: c.tag, email: c.email, phone: c.phone },
    meta: { peer_tag: c.tag, name: c.name },
    created_at: tx.createdAt,
  };
}
