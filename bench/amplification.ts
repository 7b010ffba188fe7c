// Benchmark 2: many signed-in viewers polling the balance and the status of pending requests, each with /api/live
// open; how many of their calls reach the service (the sandbox counts what it receives).
import { performance } from "node:perf_hooks";

import { BALANCE_TTL_MS } from "@/lib/balance/cache";
import { fakeAddress as nextClientIp } from "@/tests/support/sign-in";
import { SseClient } from "@/tests/support/sse-client";
import { sleep } from "@/tests/support/wait-for";

import type { BenchContext } from "./context";
import { createRequest, createStaff, freshTag, sandboxControl } from "./dashboard-api";
import { signIn, type Session } from "./session";
import { round } from "./stats";

const BALANCE_ROUTE = "GET /api/v1/business/balance";
const VIEWER_PASSWORD = "bench-viewer-password";

export interface AmplificationResult {
  viewers: number;
  pendingRequests: number;
  durationMs: number;
  pollIntervalMs: number;
  liveStreamsOpenAtEnd: number;
  viewerCalls: { balance: number; requestStatus: number; failed: number; total: number; perMinute: number };
  sandboxCalls: { byRoute: Record<string, number>; total: number; perMinute: number; balance: number };
  balanceCacheTtlMs: number;
  /** At most one balance call per cache period (plus the one in flight at the start). */
  balanceCallsAllowed: number;
  /** Sandbox calls per viewer call. */
  amplification: number;
}

async function pool<T>(items: readonly T[], width: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(width, items.length) }, async () => {
      for (let i = next++; i < items.length; i = next++) await work(items[i] as T);
    }),
  );
}

async function signInViewers(ctx: BenchContext, admin: Session, count: number): Promise<Session[]> {
  const stamp = Date.now().toString(36);
  const emails = Array.from({ length: count }, (_, i) => `viewer${i}.${stamp}@bench.test`);
  await pool(emails, 4, (email) => createStaff(admin, "viewer", email, VIEWER_PASSWORD));
  const sessions: Session[] = [];
  // Password hashing is deliberately slow: a few sign-ins at a time.
  await pool(emails, 4, async (email) => {
    sessions.push(await signIn(admin.baseUrl, email, VIEWER_PASSWORD, nextClientIp()));
  });
  ctx.log(`amplification: ${sessions.length} viewers signed in`);
  return sessions;
}

interface Counts {
  balance: number;
  requestStatus: number;
  failed: number;
}

async function poll(viewer: Session, requestIds: readonly string[], width: number, counts: Counts): Promise<void> {
  const call = async (pathname: string, kind: "balance" | "requestStatus") => {
    try {
      const res = await viewer.fetch(pathname, { signal: AbortSignal.timeout(30_000) });
      await res.arrayBuffer();
      counts[kind] += 1;
      if (!res.ok) counts.failed += 1;
    } catch {
      counts[kind] += 1;
      counts.failed += 1;
    }
  };
  await call("/api/balance", "balance");
  await pool(requestIds, width, (id) => call(`/api/requests/${encodeURIComponent(id)}`, "requestStatus"));
}

export async function benchAmplification(ctx: BenchContext, admin: Session): Promise<AmplificationResult> {
  const { viewers: viewerCount, pendingRequests, durationMs, pollIntervalMs, perViewerConcurrency } = ctx.options.amplification;
  const sandbox = sandboxControl(ctx.sandbox.apiUrl);
  const viewers = await signInViewers(ctx, admin, viewerCount);
  const requestIds: string[] = [];
  for (let i = 0; i < pendingRequests; i++) requestIds.push(await createRequest(admin, freshTag("amp")));
  const streams = await Promise.all(viewers.map((v) => SseClient.open(v)));
  try {
    await sleep(500);
    await sandbox.resetStats();
    const started = performance.now();
    const deadline = started + durationMs;
    const counts: Counts = { balance: 0, requestStatus: 0, failed: 0 };
    await Promise.all(
      viewers.map(async (viewer) => {
        // Tabs are not opened in lockstep.
        await sleep(Math.random() * Math.min(pollIntervalMs, durationMs / 2));
        while (performance.now() < deadline) {
          const round0 = performance.now();
          await poll(viewer, requestIds, perViewerConcurrency, counts);
          const wait = Math.min(pollIntervalMs - (performance.now() - round0), deadline - performance.now());
          if (wait > 0) await sleep(wait);
        }
      }),
    );
    const calls = await sandbox.stats();
    const elapsedMs = performance.now() - started;
    const liveStreamsOpenAtEnd = streams.filter((s) => s.open).length;
    const total = Object.values(calls).reduce((sum, n) => sum + n, 0);
    const viewerTotal = counts.balance + counts.requestStatus;
    if (viewerTotal === 0) throw new Error("amplification: the viewers made no calls");
    const perMinute = (n: number) => round((n * 60_000) / elapsedMs);
    const result: AmplificationResult = {
      viewers: viewers.length,
      pendingRequests: requestIds.length,
      durationMs: round(elapsedMs, 0),
      pollIntervalMs,
      liveStreamsOpenAtEnd,
      viewerCalls: { ...counts, total: viewerTotal, perMinute: perMinute(viewerTotal) },
      sandboxCalls: { byRoute: calls, total, perMinute: perMinute(total), balance: calls[BALANCE_ROUTE] ?? 0 },
      balanceCacheTtlMs: BALANCE_TTL_MS,
      balanceCallsAllowed: Math.ceil(elapsedMs / BALANCE_TTL_MS) + 1,
      amplification: round(total / viewerTotal, 4),
    };
    ctx.log(
      `amplification: viewers made ${viewerTotal} calls (${result.viewerCalls.perMinute}/min); the sandbox got ${total} (${result.sandboxCalls.perMinute}/min)`,
    );
    return result;
  } finally {
    for (const s of streams) s.close();
  }
}
