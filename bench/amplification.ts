// Benchmark 2: many signed-in viewers polling the balance and the status of pending requests, each with /api/live
// open; how many of their calls reach the service (the sandbox counts what it receives).
import { BALANCE_TTL_MS } from "@/lib/balance/cache";

import type { BenchContext } from "./context";
import { createRequest, freshTag } from "./dashboard-api";
import type { Session } from "./session";
import { round } from "./stats";
import { perMinute, runViewerLoad, signInViewers, type ViewerCalls } from "./viewer-load";

const BALANCE_ROUTE = "GET /api/v1/business/balance";

export interface AmplificationResult {
  viewers: number;
  pendingRequests: number;
  durationMs: number;
  pollIntervalMs: number;
  /**
   * The dashboard's SERVICE_RATE_LIMIT_PER_MIN: far above the target, so the count is what the dashboard's own
   * economy (balance cache, status-read gate, reconciler pace) lets through, not what the budget cuts off.
   */
  rateLimitPerMin: number;
  liveStreamsOpenAtEnd: number;
  viewerCalls: ViewerCalls;
  sandboxCalls: { byRoute: Record<string, number>; total: number; perMinute: number; balance: number };
  balanceCacheTtlMs: number;
  /** At most one balance call per cache period (plus the one in flight at the start). */
  balanceCallsAllowed: number;
  /** Sandbox calls per viewer call. */
  amplification: number;
}

export async function benchAmplification(ctx: BenchContext, admin: Session, rateLimitPerMin: number): Promise<AmplificationResult> {
  const { viewers: viewerCount, pendingRequests, durationMs, pollIntervalMs, perViewerConcurrency } = ctx.options.amplification;
  const viewers = await signInViewers(ctx, admin, viewerCount);
  const requestIds: string[] = [];
  for (let i = 0; i < pendingRequests; i++) requestIds.push(await createRequest(admin, freshTag("amp")));
  // The counts start after the requests were made: creating them is not the viewers' doing.
  const load = await runViewerLoad(ctx.sandbox.apiUrl, viewers, requestIds, { durationMs, pollIntervalMs, perViewerConcurrency });
  const calls = load.sandboxCalls;
  const total = Object.values(calls).reduce((sum, n) => sum + n, 0);
  const result: AmplificationResult = {
    viewers: viewers.length,
    pendingRequests: requestIds.length,
    durationMs: round(load.elapsedMs, 0),
    pollIntervalMs,
    rateLimitPerMin,
    liveStreamsOpenAtEnd: load.liveStreamsOpenAtEnd,
    viewerCalls: load.viewerCalls,
    sandboxCalls: { byRoute: calls, total, perMinute: perMinute(total, load.elapsedMs), balance: calls[BALANCE_ROUTE] ?? 0 },
    balanceCacheTtlMs: BALANCE_TTL_MS,
    balanceCallsAllowed: Math.ceil(load.elapsedMs / BALANCE_TTL_MS) + 1,
    amplification: round(total / load.viewerCalls.total, 4),
  };
  ctx.log(
    `amplification: viewers made ${load.viewerCalls.total} calls (${load.viewerCalls.perMinute}/min, ${load.viewerCalls.failed} failed); the sandbox got ${total} (${result.sandboxCalls.perMinute}/min)`,
  );
  return result;
}
