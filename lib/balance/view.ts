import { currencyOf, formatMinor, sumMinor } from "@/lib/client/money";
import type { Balance } from "@/lib/service/schemas";

export interface WalletView {
  name: string;
  main: boolean;
  balanceMinor: number;
  formatted: string;
}

export interface BalanceView {
  currency: string;
  totalFormatted: string;
  wallets: WalletView[];
  fetchedAt: string;
}

/** Wallets as the service formats them; the total summed exactly and formatted by lib/money. */
export function toBalanceView(balance: Balance, fetchedAt: Date): BalanceView {
  const currency = balance.wallets.map((w) => currencyOf(w.formatted_balance)).find((c): c is string => c !== null) ?? "NGN";
  const wallets = [...balance.wallets]
    .sort((a, b) => Number(b.main_wallet) - Number(a.main_wallet))
    .map((w) => ({ name: w.name, main: w.main_wallet, balanceMinor: w.balance, formatted: w.formatted_balance }));
  return {
    currency,
    totalFormatted: formatMinor(currency, sumMinor(balance.wallets.map((w) => w.balance))),
    wallets,
    fetchedAt: fetchedAt.toISOString(),
  };
}
