import "server-only";

import type { FundRequest } from "@/lib/service/schemas";
import { processSingleton } from "@/lib/util/process-singleton";

// The per-id status-read gate (docs/architecture.md "Pace and retry policies"): viewers of one request
// share one service call per FETCH_FRESH_MS. How many calls there may be is the shared budget's say
// (lib/service/budget.ts, the `read` class), not this module's.
export const FETCH_FRESH_MS = 5_000;
// Our own pending requests: one status read per request per STATUS_FRESH_MS across every instance, claimed
// in the database (lib/requests/repo.ts claimStatusCheck); a decline reaches a viewer at most this late.
export const STATUS_FRESH_MS = 20_000;
const MAX_CACHED = 1_000;

export interface FetchGateOptions {
  freshMs: number;
  now: () => number;
}

export interface FetchGate {
  /**
   * The service's record of one request: a copy fetched within `freshMs` if there is one, else the
   * call in flight for that id, else a new call. `reused` is true for the cached copy, which whoever
   * fetched it stores (perhaps not yet committed).
   */
  fetch(requestId: string, call: () => Promise<FundRequest>): Promise<{ record: FundRequest; reused: boolean }>;
  readonly stats: { calls: number; served: number };
}

export function createFetchGate(options: Partial<FetchGateOptions> = {}): FetchGate {
  const opts: FetchGateOptions = { freshMs: FETCH_FRESH_MS, now: Date.now, ...options };
  const cached = new Map<string, { value: FundRequest; at: number }>();
  const inFlight = new Map<string, Promise<FundRequest>>();
  const stats = { calls: 0, served: 0 };

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

/** Status reads of our requests that failed lately, by service id, on this instance: a failed check is no check. */
function failedReads(): Map<string, number> {
  return processSingleton("status-read-failures", () => new Map<string, number>());
}

/** A read of `requestId` failed (a viewer's or the reconciler's): viewers ask the service again, not the row. */
export function noteStatusReadFailed(requestId: string): void {
  const failed = failedReads();
  failed.delete(requestId);
  failed.set(requestId, Date.now());
  if (failed.size > MAX_CACHED) failed.delete(failed.keys().next().value as string);
}

export function noteStatusReadOk(requestId: string): void {
  failedReads().delete(requestId);
}

/** True when the last read of `requestId` on this instance, within STATUS_FRESH_MS, failed. */
export function statusReadFailedLately(requestId: string): boolean {
  const at = failedReads().get(requestId);
  return at !== undefined && Date.now() - at < STATUS_FRESH_MS;
}
