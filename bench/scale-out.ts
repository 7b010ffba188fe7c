// Benchmark 7: the same viewer load (benchmark 2's, smaller) on 1, 2 and 3 dashboard instances (`next start`) that
// share one Postgres database and one sandbox, with the default service budget: how many calls reach the service per
// minute at each count. The budget, the balance value and the job queue live in the database, so the sum should stay
// flat as instances are added. Each count gets a fresh scratch database on the DATABASE_URL server; the viewers are
// spread over the instances (viewer i on instance i mod n). Skipped, not failed, without DATABASE_URL.
import { randomBytes } from "node:crypto";
import { mkdtempSync } from "node:fs";
import path from "node:path";

import { DEMO_ADMIN } from "@/lib/auth/demo";
import { startSandbox } from "@/sandbox/server";
import { fakeAddress as nextClientIp } from "@/tests/support/sign-in";

import type { BenchContext } from "./context";
import { startDashboard, type Dashboard } from "./dashboard";
import { createRequest, freshTag } from "./dashboard-api";
import { freePorts, SANDBOX_PORTS, SERVER_PORTS } from "./ports";
import { scratchDatabase } from "./postgres";
import { signIn } from "./session";
import { round } from "./stats";
import { perMinute, runViewerLoad, signInViewers, type ViewerCalls } from "./viewer-load";

export interface ScaleOutRound {
  instances: number;
  /** SERVICE_RATE_LIMIT_PER_MIN of every instance in this round. */
  budgetPerMin: number;
  viewers: number;
  pendingRequests: number;
  durationMs: number;
  viewerCalls: ViewerCalls;
  liveStreamsOpenAtEnd: number;
  sandboxCalls: { byRoute: Record<string, number>; total: number; perMinute: number };
}

export interface ScaleOutResult {
  /** Why it was not measured (no DATABASE_URL); null when it was. */
  skipped: string | null;
  /** SERVICE_RATE_LIMIT_PER_MIN of every instance (the default). */
  budgetPerMin: number;
  /** The same rounds (one instance and the most) with a budget far above the load: what sharing saves, not the cap. */
  highBudgetPerMin: number;
  /** The most instances may cause at most this share more calls than one. */
  marginShare: number;
  pollIntervalMs: number;
  rounds: ScaleOutRound[];
}

async function measureRound(
  ctx: BenchContext,
  serverUrl: string,
  sandbox: { apiUrl: string; port: number },
  count: number,
  budgetPerMin: number,
): Promise<ScaleOutRound> {
  const o = ctx.options.scaleOut;
  const scratch = await scratchDatabase(serverUrl, ctx.log);
  const instances: Dashboard[] = [];
  // Each phase says it began, so a round that stalls names where (docs/decisions.md, "CI time").
  const phase = (what: string) => ctx.log(`scale-out: ${count} instance(s) at ${budgetPerMin}/min: ${what}`);
  try {
    // Every instance signs sessions alike, as behind one load balancer.
    const env = { AUTH_SECRET: randomBytes(24).toString("hex"), SERVICE_RATE_LIMIT_PER_MIN: String(budgetPerMin) };
    // One at a time: the first migrates the database and makes the job queues.
    for (let i = 0; i < count; i++) {
      phase(`starting instance ${i + 1}`);
      instances.push(
        await startDashboard({
          root: ctx.options.root,
          distDir: ctx.distDir,
          port: await freePorts(...SERVER_PORTS),
          sandboxPort: sandbox.port,
          apiKey: ctx.apiKey,
          dataDir: mkdtempSync(path.join(ctx.tempRoot, `scale-out-${count}-`)),
          databaseUrl: scratch.url,
          env,
        }),
      );
    }
    const first = instances[0] as Dashboard;
    phase("signing in");
    const admin = await signIn(first.url, DEMO_ADMIN.email, DEMO_ADMIN.password, nextClientIp());
    const viewers = await signInViewers(
      ctx,
      admin,
      o.viewers,
      instances.map((d) => d.url),
    );
    const requestIds: string[] = [];
    phase(`${viewers.length} viewers signed in; making ${o.pendingRequests} requests`);
    for (let i = 0; i < o.pendingRequests; i++) requestIds.push(await createRequest(admin, freshTag("so")));
    phase("viewer load");
    const load = await runViewerLoad(sandbox.apiUrl, viewers, requestIds, o);
    const total = Object.values(load.sandboxCalls).reduce((sum, n) => sum + n, 0);
    const result: ScaleOutRound = {
      instances: count,
      budgetPerMin,
      viewers: viewers.length,
      pendingRequests: requestIds.length,
      durationMs: round(load.elapsedMs, 0),
      viewerCalls: load.viewerCalls,
      liveStreamsOpenAtEnd: load.liveStreamsOpenAtEnd,
      sandboxCalls: { byRoute: load.sandboxCalls, total, perMinute: perMinute(total, load.elapsedMs) },
    };
    ctx.log(
      `scale-out: ${count} instance(s) at ${budgetPerMin}/min: the sandbox got ${total} calls (${result.sandboxCalls.perMinute}/min); viewers made ${load.viewerCalls.total}, ${load.viewerCalls.failed} failed`,
    );
    return result;
  } finally {
    phase("stopping");
    await Promise.all(instances.map((d) => d.stop()));
    await scratch.drop();
    phase("stopped");
  }
}

export async function benchScaleOut(ctx: BenchContext): Promise<ScaleOutResult> {
  const o = ctx.options.scaleOut;
  const result: ScaleOutResult = {
    skipped: null,
    budgetPerMin: o.budgetPerMin,
    highBudgetPerMin: o.highBudgetPerMin,
    marginShare: o.marginShare,
    pollIntervalMs: o.pollIntervalMs,
    rounds: [],
  };
  const serverUrl = ctx.options.postgresUrl;
  if (!serverUrl) {
    ctx.log("scale-out: skipped: needs DATABASE_URL (a Postgres server the instances can share)");
    return { ...result, skipped: "needs DATABASE_URL" };
  }
  // Its own sandbox: its counts are this benchmark's alone.
  const sandboxPort = await freePorts(...SANDBOX_PORTS, 3);
  const sandbox = await startSandbox({ port: sandboxPort, apiKey: ctx.apiKey });
  try {
    const target = { apiUrl: sandbox.apiUrl, port: sandboxPort };
    for (const count of o.instanceCounts) result.rounds.push(await measureRound(ctx, serverUrl, target, count, o.budgetPerMin));
    const most = Math.max(...o.instanceCounts);
    for (const count of [1, most]) result.rounds.push(await measureRound(ctx, serverUrl, target, count, o.highBudgetPerMin));
  } finally {
    await sandbox.close();
  }
  return result;
}
