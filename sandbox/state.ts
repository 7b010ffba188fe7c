// The sandbox's in-memory world: one business, its wallets, consumers, requests and transactions.
import { seededConsumers, deriveConsumer, isMissingTag } from "./consumers";
import { toScaled } from "./decimal";
import type { Consumer, FundRequest, Party, Transaction, Wallet } from "./types";

export const CURRENCY = "NGN";
// Ids keep growing across restarts (a dashboard's database outlives the sandbox): seconds since
// 2023-11 times 1000, so a restart never reissues an id unless 1000 requests a second were made.
export const FIRST_REQUEST_ID = Math.max(1001, (Math.floor(Date.now() / 1000) - 1_700_000_000) * 1000 + 1);

export interface Store {
  business: Party;
  wallets: Wallet[];
  consumers: Map<string, Consumer>;
  requests: Map<number, FundRequest>;
  transactions: Map<string, Transaction>;
  nextRequestId: number;
}

export function createStore(): Store {
  return {
    business: { name: "Adaeze Foods Ltd", tag: "adaeze.foods" },
    wallets: [
      wallet("Main wallet", true, 123456789),
      wallet("Savings", false, 250000.5),
      wallet("Payroll", false, 0),
      wallet("Collections", false, 9876543210.25),
    ],
    consumers: new Map(seededConsumers().map((c) => [c.tag, c])),
    requests: new Map(),
    transactions: new Map(),
    nextRequestId: FIRST_REQUEST_ID,
  };
}

/** The consumer with this tag, created on first use; null for tags the service treats as unknown. */
export function consumerFor(store: Store, tag: string): Consumer | null {
  if (isMissingTag(tag)) return null;
  let consumer = store.consumers.get(tag);
  if (!consumer) {
    consumer = deriveConsumer(tag);
    store.consumers.set(tag, consumer);
  }
  return consumer;
}

export function mainWallet(store: Store): Wallet {
  const main = store.wallets.find((w) => w.mainWallet);
  if (!main) throw new Error("the sandbox has no main wallet");
  return main;
}

export function paymentsFrom(store: Store, tag: string): number {
  let count = 0;
  for (const tx of store.transactions.values()) if (tx.customer.tag === tag) count += 1;
  return count;
}

function wallet(name: string, mainWallet: boolean, balanceMinor: number): Wallet {
  const balanceMilliKobo = toScaled(balanceMinor, 3);
  if (balanceMilliKobo === null) throw new Error(`seed balance ${balanceMinor} is finer than 1/1000 kobo`);
  return { name, mainWallet, balanceMilliKobo };
}
