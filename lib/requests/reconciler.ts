import "server-only";

import { ServiceError } from "@/lib/service/errors";

import type { RequestDeps } from "./deps";
import { noteStatusReadFailed, noteStatusReadOk } from "./fetch-gate";
import { applyFetched } from "./refresh";
import { duePending, statusChecksOwed, touchChecked } from "./repo";
import type { Db } from "@/lib/db/client";
import { checksShare, type BudgetHold } from "@/lib/service/budget";
import { safeErrorSummary } from "@/lib/log/safe-error";

export interface ReconcilerOptions {
  /** The reconciler's own pace within the shared background budget: calls per minute at most. */
  budgetPerMinute: number;
  concurrency: number;
  maxBackoffMs: number;
  log?: (line: string) => void;
}

// The app's reconcile job sets budgetPerMinute from the budget's checksShare (lib/service/budget.ts).
export const DEFAULT_RECONCILER: ReconcilerOptions = { budgetPerMinute: 30, concurrency: 3, maxBackoffMs: 60_000 };

/**
 * The background slots new sends must leave for the reconciler (docs/architecture.md "The service budget": status checks of the oldest pending
 * come before new sends): the checks due now, up to what its pace still allows in this minute and this 10 s.
 */
export function statusChecksHold(db: Db, limitPerMinute: number): Promise<BudgetHold> {
  return statusChecksOwed(db, checksShare(limitPerMinute), new Date());
}

/**
 * The reconciler's pace and back-off between passes. The `reconcile` job carries it from each pass to the next (the
 * next pass may run on another instance), so the deployment keeps one pace, not one per instance.
 */
export interface ReconcilerPace {
  tokens: number;
  lastRefill: number;
  backoffMs: number;
  pausedUntil: number;
}

export interface Reconciler {
  /** One pass; resolves when its calls are done, with how many it made. Passes never overlap. */
  runOnce(): Promise<number>;
  /** The pace after the passes so far, to hand to the next pass. */
  pace(): ReconcilerPace;
  /** Takes up the pace the previous pass (on any instance) left. */
  resume(pace: ReconcilerPace): void;
  readonly stats: { calls: number; applied: number; backoffs: number; pausedUntil: number };
}

/**
 * Declines send no webhook, so pending requests are refreshed from the service: least recently
 * checked first, a few at a time, within a per-minute pace, pausing with growing backoff on
 * 429/5xx/unreachable. Status changes go through applyFetched, which only moves forward. The
 * `reconcile` job runs the passes, one at a time across all instances (lib/jobs).
 */
export function createReconciler(deps: RequestDeps, options: Partial<ReconcilerOptions> = {}): Reconciler {
  const opts = { ...DEFAULT_RECONCILER, ...options };
  const capacity = Math.max(opts.concurrency, 1);
  let tokens = capacity;
  let lastRefill = Date.now();
  let backoffMs = 0;
  const stats = { calls: 0, applied: 0, backoffs: 0, pausedUntil: 0 };
  let running: Promise<number> | null = null;

  function refill(now: number) {
    tokens = Math.min(capacity, tokens + ((now - lastRefill) * opts.budgetPerMinute) / 60_000);
    lastRefill = now;
  }

  function backOff(error: ServiceError) {
    // Several calls of one pass failing together are one incident, not several.
    if (Date.now() < stats.pausedUntil) return;
    backoffMs = Math.min(opts.maxBackoffMs, backoffMs === 0 ? 2_000 : backoffMs * 2);
    const wait = Math.max(backoffMs, Math.min(error.retryAfterMs ?? 0, opts.maxBackoffMs));
    stats.pausedUntil = Date.now() + wait;
    stats.backoffs += 1;
    opts.log?.(`service ${error.kind}; pausing refreshes for ${Math.round(wait / 1000)} s`);
  }

  async function pass(): Promise<number> {
    const now = Date.now();
    if (now < stats.pausedUntil) return 0;
    refill(now);
    const allowed = Math.floor(tokens);
    if (allowed < 1) return 0;
    // After a failure, one probe call per pause (half-open) rather than a full burst into the storm.
    const rows = await duePending(deps.db, backoffMs > 0 ? 1 : Math.min(allowed, capacity), new Date(now));
    let calls = 0;
    await Promise.all(
      rows.map(async (row) => {
        if (!row.requestId || Date.now() < stats.pausedUntil) return;
        tokens -= 1;
        calls += 1;
        stats.calls += 1;
        try {
          const fetched = await deps.service.getFundRequest(row.requestId);
          noteStatusReadOk(row.requestId);
          await applyFetched(deps, fetched);
          stats.applied += 1;
          backoffMs = 0;
        } catch (error) {
          // A failed check is no check: viewers ask again and learn why (lib/requests/fetch-gate.ts).
          if (error instanceof ServiceError) noteStatusReadFailed(row.requestId);
          // A call the shared budget refused never reached the service: the row stays the oldest due, and the
          // reconciler waits for the slot the budget named (no growing back-off: the service is fine).
          if (error instanceof ServiceError && error.budgetRefused) {
            stats.pausedUntil = Math.max(stats.pausedUntil, Date.now() + (error.retryAfterMs ?? 1_000));
            return;
          }
          await touchChecked(deps.db, row.id);
          if (error instanceof ServiceError && ["rate_limited", "server_error", "unreachable", "timeout"].includes(error.kind)) backOff(error);
          else opts.log?.(`could not refresh request ${row.requestId}: ${safeErrorSummary(error)}`);
        }
      }),
    );
    return calls;
  }

  function runOnce(): Promise<number> {
    running ??= pass().finally(() => {
      running = null;
    });
    return running;
  }

  return {
    stats,
    runOnce,
    pace: () => ({ tokens, lastRefill, backoffMs, pausedUntil: stats.pausedUntil }),
    resume(p) {
      tokens = Math.min(capacity, Math.max(0, p.tokens));
      lastRefill = p.lastRefill;
      backoffMs = p.backoffMs;
      stats.pausedUntil = p.pausedUntil;
    },
  };
}
