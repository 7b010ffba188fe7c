import "server-only";

import { getService } from "@/lib/service/app-client";

import { toBalanceView, type BalanceView } from "./view";

// Any number of viewers cause at most one service call per TTL (DESIGN §4).
export const BALANCE_TTL_MS = 5_000;
// The refresh button skips the cache only for a value older than this, so no viewer can spend the
// service's rate limit by clicking: at most one call per 5 s per instance, as for plain reads.
export const MIN_REFRESH_AGE_MS = 5_000;

interface CacheState {
  value: BalanceView | null;
  fetchedAt: number;
  expiresAt: number;
  inFlight: Promise<BalanceView> | null;
  /** Bumped by invalidateBalance: a call that started before it must not be cached as fresh. */
  generation: number;
}

const KEY = Symbol.for("fundboard.balance-cache");
type Holder = { [KEY]?: CacheState };

function state(): CacheState {
  const g = globalThis as Holder;
  g[KEY] ??= { value: null, fetchedAt: 0, expiresAt: 0, inFlight: null, generation: 0 };
  return g[KEY];
}

/** The wallet balances, from the cache when fresh; concurrent misses share one service call. */
export function getBalanceView(opts: { fresh?: boolean } = {}): Promise<BalanceView> {
  const s = state();
  const now = Date.now();
  const usable = opts.fresh ? now - s.fetchedAt < MIN_REFRESH_AGE_MS : now < s.expiresAt;
  if (s.value && usable) return Promise.resolve(s.value);
  if (s.inFlight) return s.inFlight;
  const generation = s.generation;
  const call = getService()
    .getBalance()
    .then((balance) => {
      const view = toBalanceView(balance, new Date());
      if (generation === s.generation) {
        s.value = view;
        s.fetchedAt = Date.now();
        s.expiresAt = s.fetchedAt + BALANCE_TTL_MS;
      }
      return view;
    })
    .finally(() => {
      if (s.inFlight === call) s.inFlight = null;
    });
  s.inFlight = call;
  return call;
}

/** Forgets the cached value (a payment changed the balance). */
export function invalidateBalance(): void {
  const s = state();
  s.expiresAt = 0;
  s.fetchedAt = 0;
  s.generation += 1;
  // The next reader starts a new call instead of joining one that began before the change.
  s.inFlight = null;
}
