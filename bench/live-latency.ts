// Benchmark 3: from the sandbox accepting (or declining) a request to the `request.updated` event on /api/live.
import { performance } from "node:perf_hooks";

import { sandboxControl } from "@/tests/support/sandbox-control";
import { requestUpdated, SseClient } from "@/tests/support/sse-client";

import type { BenchContext } from "./context";
import { createRequest, freshTag } from "./dashboard-api";
import type { Session } from "./session";
import { summarize, type Summary } from "./stats";

export interface LatencySeries {
  /** Requests decided. */
  attempts: number;
  /** Events that never came within the timeout. */
  timeouts: number;
  timeoutMs: number;
  latencyMs: Summary;
}

export interface LiveLatencyResult {
  /** Accept → webhook → link → event. */
  accepts: LatencySeries;
  /** Decline (no webhook) → reconciler → event. */
  declines: LatencySeries;
}

async function series(
  ctx: BenchContext,
  admin: Session,
  live: SseClient,
  action: "accept" | "decline",
  count: number,
  timeoutMs: number,
): Promise<LatencySeries> {
  const sandbox = sandboxControl(ctx.sandbox.apiUrl);
  const status = action === "accept" ? "accepted" : "declined";
  const samples: number[] = [];
  let timeouts = 0;
  for (let i = 0; i < count; i++) {
    const requestId = await createRequest(admin, freshTag(action === "accept" ? "lat.acc" : "lat.dec"));
    const t0 = performance.now();
    const arrived = live.waitFor(requestUpdated(requestId, status), timeoutMs, t0);
    await sandbox.act(requestId, action);
    const event = await arrived;
    if (event) samples.push(event.at - t0);
    else timeouts += 1;
    if (!live.open) throw new Error("live latency: the /api/live stream closed");
  }
  const latencyMs = summarize(samples);
  ctx.log(`live ${action}: p50 ${latencyMs.p50} ms, p95 ${latencyMs.p95} ms over ${samples.length}${timeouts ? `, ${timeouts} timed out` : ""}`);
  return { attempts: count, timeouts, timeoutMs, latencyMs };
}

export async function benchLiveLatency(ctx: BenchContext, admin: Session): Promise<LiveLatencyResult> {
  const { accepts, declines, acceptTimeoutMs, declineTimeoutMs } = ctx.options.live;
  const live = await SseClient.open(admin);
  try {
    const a = await series(ctx, admin, live, "accept", accepts, acceptTimeoutMs);
    const d = await series(ctx, admin, live, "decline", declines, declineTimeoutMs);
    if (a.latencyMs.n === 0) throw new Error("live latency: no accept reached the live stream");
    if (declines > 0 && d.latencyMs.n === 0) throw new Error("live latency: no decline reached the live stream");
    return { accepts: a, declines: d };
  } finally {
    live.close();
  }
}
