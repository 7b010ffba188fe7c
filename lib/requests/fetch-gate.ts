import "server-only";

import type { FundRequest } from "@/lib/service/schemas";
import { processSingleton } from "@/lib/util/process-singleton";

// Viewers' status reads share the service's ~100 calls/min with the reconciler (30/min) and the
// balance cache (≤12/min): reads on demand get their own bucket, so even a minute that starts with
// a full burst stays well under the limit (20 + 25 + 30 + 12 = 87).
export const FETCH_FRESH_MS = 5_000;
export const ON_DEMAND_BUDGET_PER_MINUTE = 25;
const BURST = 20;
const MAX_CACHED = 1_000;

/** The on-demand budget is spent and nothing recent is cached: the caller says "try again shortly". */
export class PacedError extends Error {
  constructor(readonly retryAfterMs: number) {
    super(`on-demand service budget spent; next call in ${retryAfterMs} ms`);
    this.name = "PacedError";
  }

  get userMessage(): string {
    return `The dashboard is pacing its calls to the payment service; try again in ${Math.max(1, Math.ceil(this.retryAfterMs / 1000))} seconds.`;
  }
}

// Checked by shape, not instanceof: Next.js may bundle this module more than once per process.
export function isPacedError(error: unknown): error is PacedError {
  return error instanceof Error && error.name === "PacedError" && typeof (error as Partial<PacedError>).retryAfterMs === "number";
}

export interface FetchGateOptions {
  budgetPerMinute: number;
  burst: number;
  freshMs: number;
  now: () => number;
}

export interface FetchGate {
  /**
   * The service's record of one request: a copy fetched within `freshMs` if there is one, else the
   * call in flight for that id, else a new call if the budget allows; otherwise PacedError.
   * `reused` is true for the cached copy, which whoever fetched it stores (perhaps not yet committed).
   */
  fetch(requestId: string, call: () => Promise<FundRequest>): Promise<{ record: FundRequest; reused: boolean }>;
  readonly stats: { calls: number; served: number; paced: number };
}

export function createFetchGate(options: Partial<FetchGateOptions> = {}): FetchGate {
  const opts: FetchGateOptions = { budgetPerMinute: ON_DEMAND_BUDGET_PER_MINUTE, burst: BURST, freshMs: FETCH_FRESH_MS, now: Date.now, ...options };
  const cached = new Map<string, { value: FundRequest; at: number }>();
  const inFlight = new Map<string, Promise<FundRequest>>();
  let tokens = opts.burst;
  let lastRefill = opts.now();
  const stats = { calls: 0, served: 0, paced: 0 };

  function take(now: number): number {
    tokens = Math.min(opts.burst, tokens + ((now - lastRefill) * opts.budgetPerMinute) / 60_000);
    lastRefill = now;
    if (tokens >= 1) {
      tokens -= 1;
      return 0;
    }
    return Math.ceil(((1 - tokens) * 60_000) / opts.budgetPerMinute);
  }

  function remember(id: string, value: FundRequest, at: number) {
    cached.delete(id);
    cached.set(id, { value, at });
    // Map keeps insertion order: the first key is the oldest entry.
    if (cached.size > MAX_CACHED) cached.delete(cached.keys().next().value as string);
  }

  return {
    stats,
    fetch(requestId, call) {
      const now = opts.now();
      const hit = cached.get(requestId);
      if (hit && now - hit.at < opts.freshMs) {
        stats.served += 1;
        return Promise.resolve({ record: hit.value, reused: true });
      }
      const running = inFlight.get(requestId);
      if (running) {
        stats.served += 1;
        return running.then((record) => ({ record, reused: false }));
      }
      const wait = take(now);
      if (wait > 0) {
        stats.paced += 1;
        return Promise.reject(new PacedError(wait));
      }
      stats.calls += 1;
      const promise = call()
        .then((value) => {
          remember(requestId, value, opts.now());
          return value;
        })
        .finally(() => inFlight.delete(requestId));
      inFlight.set(requestId, promise);
      return promise.then((record) => ({ record, reused: false }));
    },
  };
}

/** The process-wide gate (one per instance, like the balance cache). */
export function getFetchGate(): FetchGate {
  return processSingleton("fetch-gate", createFetchGate);
}
