// Benchmark 18: pay pages under a flood (issue 42, docs/architecture.md "Pay pages"), on its own dashboard at the
// default service budget (90 calls a minute): `perSecond` submissions a second for `durationMs` from `addresses`
// addresses (X-Forwarded-For, TRUST_PROXY=1), each with a valid challenge solved beforehand as a browser would; a
// page view with every tenth; meanwhile a staff member sends a request every 2 s. Measured: the public POST's and
// page's round trips (server time on loopback), the staff member's sends, and the API-host calls in any 60 s
// (sampled from the sandbox each second). Targets: budget never over its limit, staff p95 < 1 s, public p95 < 300 ms.
import { mkdtempSync } from "node:fs";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { randomUUID } from "node:crypto";

import { DEMO_ADMIN } from "@/lib/auth/demo";
import { fakeAddress as nextClientIp } from "@/tests/support/sign-in";
import { sleep } from "@/tests/support/wait-for";

import type { BenchContext } from "./context";
import { startDashboard } from "./dashboard";
import { freshTag } from "./dashboard-api";
import { solvedChallenges } from "./pay-challenges";
import { freePorts, SERVER_PORTS } from "./ports";
import { signIn } from "./session";
import { round, summarize, type Summary } from "./stats";

const BUDGET_PER_MIN = 90;
const PEER_REQUESTS = "/api/v1/transfer/request/peer";
const API_HOST_ROUTES = [`POST ${PEER_REQUESTS}`, `GET ${PEER_REQUESTS}/:request_id`, "GET /api/v1/business/balance"];
const STAFF_EVERY_MS = 2_000;

export interface PayPagesResult {
  perSecond: number;
  durationMs: number;
  addresses: number;
  /** Seconds spent solving the challenges before the flood (not part of it). */
  solveSeconds: number;
  /** Answers of the public POST by status. */
  answers: Record<string, number>;
  publicMs: Summary;
  pageMs: Summary;
  staffSendMs: Summary;
  staffFailed: number;
  budget: { limitPerMin: number; maxIn60s: number; overBudget: number };
  /** Requests the sandbox received from the dashboard during the flood and its minute after. */
  requestsCreated: number;
}

async function apiHostCalls(apiUrl: string): Promise<{ all: number; creates: number }> {
  const res = await fetch(`${apiUrl}/sandbox/stats`, { signal: AbortSignal.timeout(10_000) });
  if (!res.ok) throw new Error(`sandbox stats: HTTP ${res.status}`);
  const calls = ((await res.json()) as { calls: Record<string, number> }).calls;
  return { all: API_HOST_ROUTES.reduce((sum, r) => sum + (calls[r] ?? 0), 0), creates: calls[API_HOST_ROUTES[0] as string] ?? 0 };
}

/** The most calls between two samples at most 60 s apart (counts only grow). */
function maxIn60s(samples: readonly { at: number; all: number }[]): number {
  let best = 0;
  let from = 0;
  for (const end of samples) {
    while ((samples[from]?.at ?? end.at) < end.at - 60_000) from += 1;
    best = Math.max(best, end.all - (samples[from]?.all ?? end.all));
  }
  return best;
}

export async function benchPayPages(ctx: BenchContext): Promise<PayPagesResult> {
  const { perSecond, durationMs, addresses } = ctx.options.payPages;
  const port = await freePorts(...SERVER_PORTS);
  const dashboard = await startDashboard({
    root: ctx.options.root,
    distDir: ctx.distDir,
    port,
    sandboxPort: ctx.sandbox.port,
    apiKey: ctx.apiKey,
    dataDir: mkdtempSync(path.join(ctx.tempRoot, "pay-pages-")),
    env: { SERVICE_RATE_LIMIT_PER_MIN: String(BUDGET_PER_MIN), TRUST_PROXY: "1" },
  });
  try {
    const admin = await signIn(dashboard.url, DEMO_ADMIN.email, DEMO_ADMIN.password, nextClientIp());
    const slug = `bench-${randomUUID().slice(0, 8)}`;
    const made = await admin.json<{ id: string }>("/api/pay-pages", {
      method: "POST",
      body: JSON.stringify({ slug, title: "Bench dues", amount: { min: "100", max: "50000" }, dailyLimit: 100_000 }),
    });
    if (made.status !== 201) throw new Error(`making the pay page: HTTP ${made.status} ${made.message}`);

    const total = Math.round((perSecond * durationMs) / 1000);
    const solveStart = performance.now();
    const solved = await solvedChallenges(dashboard.url, total);
    const solveSeconds = round((performance.now() - solveStart) / 1000);
    ctx.log(`pay pages: ${total} challenges solved in ${solveSeconds} s`);

    // One view first: the page's first render (its code loaded) is not part of the flood's figures.
    const warm = await fetch(`${dashboard.url}/pay/${slug}`);
    if (warm.status !== 200) throw new Error(`GET /pay/${slug}: HTTP ${warm.status}`);
    await warm.text();

    const samples: { at: number; all: number }[] = [];
    const before = await apiHostCalls(ctx.sandbox.apiUrl);
    let sampling = true;
    const sampler = (async () => {
      while (sampling) {
        samples.push({ at: performance.now(), all: (await apiHostCalls(ctx.sandbox.apiUrl)).all });
        await sleep(1_000);
      }
    })();

    const staffMs: number[] = [];
    let staffFailed = 0;
    let flooding = true;
    const staff = (async () => {
      while (flooding) {
        const t0 = performance.now();
        const res = await admin.fetch("/api/requests", {
          method: "POST",
          headers: { "content-type": "application/json", origin: dashboard.url },
          body: JSON.stringify({ tag: freshTag("pp.staff"), amount: "150.00", description: "Bench staff send", idempotencyKey: randomUUID() }),
        });
        await res.text();
        if (res.status === 201) staffMs.push(performance.now() - t0);
        else staffFailed += 1;
        await sleep(Math.max(0, STAFF_EVERY_MS - (performance.now() - t0)));
      }
    })();

    const answers: Record<string, number> = {};
    const publicMs: number[] = [];
    const pageMs: number[] = [];
    const started = performance.now();
    const inFlight: Promise<void>[] = [];
    for (let i = 0; i < total; i++) {
      const due = started + (i * 1000) / perSecond;
      const wait = due - performance.now();
      if (wait > 0) await sleep(wait);
      const address = `10.${Math.floor((i % addresses) / 250)}.${(i % addresses) % 250}.${1 + (i % 7)}`;
      inFlight.push(
        (async () => {
          const t0 = performance.now();
          const res = await fetch(`${dashboard.url}/api/public/pay/${slug}`, {
            method: "POST",
            headers: { "content-type": "application/json", origin: dashboard.url, "x-forwarded-for": address },
            body: JSON.stringify({ tag: freshTag("pp"), amount: "150", fields: [], altcha: solved[i] }),
          });
          await res.text();
          publicMs.push(performance.now() - t0);
          answers[res.status] = (answers[res.status] ?? 0) + 1;
          if (i % 10 === 0) {
            const p0 = performance.now();
            const page = await fetch(`${dashboard.url}/pay/${slug}`, { headers: { "x-forwarded-for": address } });
            await page.text();
            if (page.status === 200) pageMs.push(performance.now() - p0);
            else answers[`page ${page.status}`] = (answers[`page ${page.status}`] ?? 0) + 1;
          }
        })(),
      );
    }
    await Promise.all(inFlight);
    flooding = false;
    await staff;
    // The public sends go on after the flood, at their share: the minute after counts against the budget too.
    await sleep(ctx.options.smoke ? 5_000 : 60_000);
    sampling = false;
    await sampler;
    const after = await apiHostCalls(ctx.sandbox.apiUrl);
    const most = maxIn60s(samples);
    const result: PayPagesResult = {
      perSecond,
      durationMs,
      addresses,
      solveSeconds,
      answers,
      publicMs: summarize(publicMs),
      pageMs: summarize(pageMs),
      staffSendMs: summarize(staffMs),
      staffFailed,
      budget: { limitPerMin: BUDGET_PER_MIN, maxIn60s: most, overBudget: Math.max(0, most - BUDGET_PER_MIN) },
      requestsCreated: after.creates - before.creates,
    };
    ctx.log(
      `pay pages: ${total} submissions, public p95 ${result.publicMs.p95} ms, staff p95 ${result.staffSendMs.p95} ms, max ${most} API-host calls in 60 s`,
    );
    return result;
  } finally {
    await dashboard.stop();
  }
}
