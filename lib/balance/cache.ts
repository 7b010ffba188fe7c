import "server-only";

import { getService } from "@/lib/service/app-client";

import { toBalanceView, type BalanceView } from "./view";

// Any number of viewers cause at most one service call per TTL (DESIGN §4).
export const BALANCE_TTL_MS = 5_000;

interface CacheState {
  value: BalanceView | null;
  expiresAt: number;
  inFlight: Promise<BalanceView> | null;
}

const KEY = Symbol.for("fundboard.balance-cache");
type Holder = { [KEY]?: CacheState };

function state(): CacheState {
  const g = globalThis as Holder;
  g[KEY] ??= { value: null, expiresAt: 0, inFlight: null };
  return g[KEY];
}

/** The wallet balances, from the cache when fresh; concurrent misses share one service call. */
export function getBalanceView(opts: { fresh?: boolean } = {}): Promise<BalanceView> {
  const s = state();
  if (!opts.fresh && s.value && Date.now() < s.expiresAt) return Promise.resolve(s.value);
  if (s.inFlight) return s.inFlight;
  const call = getService()
    .getBalance()
    .then((balance) => {
      const view = toBalanceView(balance, new Date());
      s.value = view;
      s.expiresAt = Date.now() + BALANCE_TTL_MS;
      return view;
    })
    .finally(() => {
      s.inFlight = null;
    });
  s.inFlight = call;
  return call;
}

/** Forgets the cached value (a payment changed the balance). */
export function invalidateBalance(): void {
  state().expiresAt = 0;
}
