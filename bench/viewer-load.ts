// The viewer load of the service-call benchmarks (2: one dashboard; 7: several instances): signed-in viewers, each
// with /api/live open, polling the balance and the status of pending requests; the sandbox counts what reaches it.
import { performance } from "node:perf_hooks";

import { sandboxControl } from "@/tests/support/sandbox-control";
import { fakeAddress as nextClientIp } from "@/tests/support/sign-in";
import { SseClient } from "@/tests/support/sse-client";
import { sleep } from "@/tests/support/wait-for";

import type { BenchContext } from "./context";
import { createStaff } from "./dashboard-api";
import { signIn, type Session } from "./session";
import { round } from "./stats";

const VIEWER_PASSWORD = "bench-viewer-password";

export interface ViewerLoadOptions {
  durationMs: number;
  pollIntervalMs: number;
  /** Status reads one viewer has in flight at once. */
  perViewerConcurrency: number;
}

export interface ViewerCalls {
  balance: number;
  requestStatus: number;
  failed: number;
  /** Failed calls by HTTP status ("0": no answer). */
  failedByStatus?: Record<string, number>;
  total: number;
  perMinute: number;
}

export interface ViewerLoadOutcome {
  viewerCalls: ViewerCalls;
  /** From the sandbox's stats reset to its last count. */
  elapsedMs: number;
  /** Calls the sandbox received meanwhile, by "<METHOD> <pattern>" (API and verify hosts). */
  sandboxCalls: Record<string, number>;
  liveStreamsOpenAtEnd: number;
}

export async function pool<T>(items: readonly T[], width: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(width, items.length) }, async () => {
      for (let i = next++; i < items.length; i = next++) await work(items[i] as T);
    }),
  );
}

/** `count` new viewer accounts (made by `admin`), viewer i signed in at `baseUrls[i % baseUrls.length]`. */
export async function signInViewers(ctx: BenchContext, admin: Session, count: number, baseUrls: readonly string[] = [admin.baseUrl]): Promise<Session[]> {
  const stamp = Date.now().toString(36);
  const emails = Array.from({ length: count }, (_, i) => `viewer${i}.${stamp}@bench.test`);
  const passwords = new Map<string, string>();
  await pool(emails, 4, async (email) => void passwords.set(email, await createStaff(admin, "viewer", email, VIEWER_PASSWORD)));
  const sessions: Session[] = [];
  // Password hashing is deliberately slow: a few sign-ins at a time.
  await pool(
    emails.map((email, i) => ({ email, baseUrl: baseUrls[i % baseUrls.length] ?? admin.baseUrl })),
    4,
    async ({ email, baseUrl }) => {
      sessions.push(await signIn(baseUrl, email, passwords.get(email) ?? VIEWER_PASSWORD, nextClientIp()));
    },
  );
  ctx.log(`${sessions.length} viewers signed in${baseUrls.length > 1 ? ` across ${baseUrls.length} instances` : ""}`);
  return sessions;
}

type Counts = Omit<ViewerCalls, "total" | "perMinute"> & { failedByStatus: Record<string, number> };

async function poll(viewer: Session, requestIds: readonly string[], width: number, counts: Counts): Promise<void> {
  const call = async (pathname: string, kind: "balance" | "requestStatus") => {
    let status = 0;
    try {
      const res = await viewer.fetch(pathname, { signal: AbortSignal.timeout(30_000) });
      await res.arrayBuffer();
      status = res.status;
    } catch {
      status = 0;
    }
    counts[kind] += 1;
    if (status < 200 || status >= 300) {
      counts.failed += 1;
      counts.failedByStatus[status] = (counts.failedByStatus[status] ?? 0) + 1;
    }
  };
  await call("/api/balance", "balance");
  await pool(requestIds, width, (id) => call(`/api/requests/${encodeURIComponent(id)}`, "requestStatus"));
}

/**
 * Opens every viewer's /api/live, resets the sandbox's counts, then has each viewer poll every `pollIntervalMs` for
 * `durationMs` (tabs start at random offsets, not in lockstep); answers the viewers' calls and the sandbox's.
 */
export async function runViewerLoad(
  sandboxApiUrl: string,
  viewers: readonly Session[],
  requestIds: readonly string[],
  o: ViewerLoadOptions,
): Promise<ViewerLoadOutcome> {
  const sandbox = sandboxControl(sandboxApiUrl);
  const streams = await Promise.all(viewers.map((v) => SseClient.open(v)));
  try {
    await sleep(500);
    await sandbox.resetStats();
    const started = performance.now();
    const deadline = started + o.durationMs;
    const counts: Counts = { balance: 0, requestStatus: 0, failed: 0, failedByStatus: {} };
    await Promise.all(
      viewers.map(async (viewer) => {
        await sleep(Math.random() * Math.min(o.pollIntervalMs, o.durationMs / 2));
        while (performance.now() < deadline) {
          const round0 = performance.now();
          await poll(viewer, requestIds, o.perViewerConcurrency, counts);
          const wait = Math.min(o.pollIntervalMs - (performance.now() - round0), deadline - performance.now());
          if (wait > 0) await sleep(wait);
        }
      }),
    );
    const sandboxCalls = await sandbox.calls();
    const elapsedMs = performance.now() - started;
    const total = counts.balance + counts.requestStatus;
    if (total === 0) throw new Error("the viewers made no calls");
    return {
      viewerCalls: { ...counts, total, perMinute: perMinute(total, elapsedMs) },
      elapsedMs,
      sandboxCalls,
      liveStreamsOpenAtEnd: streams.filter((s) => s.open).length,
    };
  } finally {
    await Promise.all(streams.map((s) => s.close()));
  }
}

export function perMinute(n: number, elapsedMs: number): number {
  return round((n * 60_000) / elapsedMs);
}
