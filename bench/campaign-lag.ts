// Benchmark 9: numbers right at once (issue 21). A campaign whose people accept at once, on its own dashboard at the
// default budget and its own sandbox: for each payment, from the sandbox getting the webhook's 200 to the
// `request.updated` event saying its request (and so its campaign row) is accepted; and, after the last payment,
// how long until the campaign's collected equals the settled sum of its payments (from the deliveries' payloads).
import { mkdtempSync } from "node:fs";
import path from "node:path";
import { performance } from "node:perf_hooks";

import { DEMO_ADMIN } from "@/lib/auth/demo";
import type { CampaignView } from "@/lib/client/campaigns/view";
import { addDecimals, formatMajor, serviceAmountToNaira, toDecimal, type Decimal } from "@/lib/client/money";
import { startSandbox } from "@/sandbox/server";
import { sandboxControl } from "@/tests/support/sandbox-control";
import { fakeAddress as nextClientIp } from "@/tests/support/sign-in";
import { SseClient } from "@/tests/support/sse-client";
import { sleep } from "@/tests/support/wait-for";

import type { BenchContext } from "./context";
import { startDashboard } from "./dashboard";
import { campaignCsv, uploadCampaign } from "./dashboard-api";
import { freePorts, SANDBOX_PORTS, SERVER_PORTS } from "./ports";
import { signIn, type Session } from "./session";
import { round, summarize, type Summary } from "./stats";

/** SERVICE_RATE_LIMIT_PER_MIN's default: the lag is measured at the budget a deployment runs with. */
const DEFAULT_BUDGET = 90;

export interface CampaignLagResult {
  rows: number;
  budgetPerMin: number;
  /** The campaign's rows all accepted (as live events) before the cap. */
  finished: boolean;
  capMs: number;
  /** Start → the last row's accepted event. */
  elapsedMs: number;
  /** Webhook 200 (at the sandbox) → `request.updated` accepted, per payment of the campaign. */
  lagMs: Summary;
  /** Payments delivered whose accepted event never came. */
  noEvent: number;
  /** The last payment's 200 → the campaign's collected equal to the settled sum of its payments; null if never. */
  collectedAfterMs: number | null;
  collected: string;
  settledSum: string;
  /** The second round: people asked twice (a campaign they left unanswered, then its ask-again round) who pay the round. */
  chase: ChaseResult;
}

export interface ChaseResult {
  rows: number;
  /** Webhook 200 → the round's request accepted with its payment (live event), per payment. */
  lagMs: Summary;
  /** Round payments whose request never showed its payment within 60 s of the last 200 (linking left them alone). */
  unlinked: number;
}

async function readCampaign(admin: Session, id: string): Promise<CampaignView> {
  const res = await admin.json<CampaignView>(`/api/campaigns/${id}`, { signal: AbortSignal.timeout(30_000) });
  if (res.status !== 200 || !res.data) throw new Error(`reading campaign ${id}: HTTP ${res.status} ${res.message}`);
  return res.data;
}

export async function benchCampaignLag(ctx: BenchContext): Promise<CampaignLagResult> {
  const sandboxPort = await freePorts(...SANDBOX_PORTS, 3);
  const sandbox = await startSandbox({ port: sandboxPort, apiKey: ctx.apiKey });
  try {
    const dashboard = await startDashboard({
      root: ctx.options.root,
      distDir: ctx.distDir,
      port: await freePorts(...SERVER_PORTS),
      sandboxPort,
      apiKey: ctx.apiKey,
      dataDir: mkdtempSync(path.join(ctx.tempRoot, "lag-")),
      env: { SERVICE_RATE_LIMIT_PER_MIN: String(DEFAULT_BUDGET) },
    });
    try {
      const admin = await signIn(dashboard.url, DEMO_ADMIN.email, DEMO_ADMIN.password, nextClientIp());
      const first = await measure(ctx, admin, sandbox.apiUrl);
      return { ...first, chase: await measureChase(ctx, admin, sandbox.apiUrl) };
    } finally {
      await dashboard.stop();
    }
  } finally {
    await sandbox.close();
  }
}

async function measure(ctx: BenchContext, admin: Session, apiUrl: string): Promise<Omit<CampaignLagResult, "chase">> {
  const o = ctx.options.lag;
  // `accept.*` tags: the sandbox's people accept at once and the payment's webhook follows.
  const { view: campaign } = await uploadCampaign(admin, `Bench lag, ${o.rows} rows`, campaignCsv("accept.lag", o.rows));
  if (campaign.counts.total !== o.rows || campaign.counts.invalid !== 0) throw new Error(`the lag campaign's upload made ${campaign.counts.total} rows`);
  const live = await SseClient.open(admin, "/api/live", { keep: o.rows * 20 });
  try {
    const accepted = new Map<string, number>();
    const t0 = performance.now();
    const started = await admin.json<CampaignView>(`/api/campaigns/${campaign.id}/start`, { method: "POST", body: "{}" });
    if (started.status !== 200) throw new Error(`starting the lag campaign: HTTP ${started.status} ${started.message}`);
    ctx.log(`lag: ${o.rows}-row campaign started at the default budget (${DEFAULT_BUDGET}/min); at most ${Math.round(o.capMs / 1000)} s`);
    const deadline = t0 + o.capMs;
    let seen = 0;
    while (accepted.size < o.rows && performance.now() < deadline) {
      if (!live.open) throw new Error("lag: the /api/live stream closed");
      await live.waitFor(() => true, 1_000, performance.now());
      const events = live.events;
      for (let i = Math.max(0, events.length - (live.received - seen)); i < events.length; i++) {
        const e = events[i];
        if (e?.event !== "request.updated") continue;
        const data = JSON.parse(e.data) as { requestId: string | null; campaignId: string | null; status: string };
        if (data.campaignId === campaign.id && data.status === "accepted" && data.requestId && !accepted.has(data.requestId))
          accepted.set(data.requestId, performance.timeOrigin + e.at);
      }
      seen = live.received;
    }
    const elapsedMs = performance.now() - t0;
    const finished = accepted.size >= o.rows;
    if (!finished) ctx.log(`lag: ${accepted.size} of ${o.rows} rows accepted after ${Math.round(elapsedMs / 1000)} s`);

    // The sandbox's deliveries of this campaign's payments: when each got its 200, and what each settled.
    const deliveries = (await sandboxControl(apiUrl).deliveries()).filter((d) => d.outcome === "delivered" && accepted.has(String(d.request_id)));
    const lags: number[] = [];
    let lastOk = 0;
    const settled: Decimal[] = [];
    for (const d of deliveries) {
      const ok = d.attempts.find((a) => a.status !== undefined && a.status >= 200 && a.status < 300);
      const event = accepted.get(String(d.request_id));
      if (!ok || event === undefined) continue;
      const okAt = Date.parse(ok.answeredAt);
      lastOk = Math.max(lastOk, okAt);
      lags.push(event - okAt);
      settled.push(toDecimal(serviceAmountToNaira((JSON.parse(d.body) as { settled_amount: number }).settled_amount, "major")));
    }
    const settledSum = formatMajor("NGN", addDecimals(settled));
    const noEvent = deliveries.length - lags.length;

    // The campaign's collected catches up with its payments' settled sum: read it until equal (a cap of 60 s).
    let collected = "";
    let collectedAfterMs: number | null = null;
    for (const stop = Date.now() + 60_000; Date.now() < stop; await sleep(100)) {
      collected = formatMajor("NGN", (await readCampaign(admin, campaign.id)).amounts.collected);
      if (collected === settledSum) {
        collectedAfterMs = round(Math.max(0, Date.now() - lastOk));
        break;
      }
    }
    const lagMs = summarize(lags);
    ctx.log(
      `lag: p50 ${lagMs.p50} ms, p95 ${lagMs.p95} ms over ${lagMs.n}; collected ${collected} vs settled ${settledSum}, ${collectedAfterMs ?? "never"} ms after the last payment`,
    );
    return {
      rows: o.rows,
      budgetPerMin: DEFAULT_BUDGET,
      finished,
      capMs: o.capMs,
      elapsedMs: round(elapsedMs, 0),
      lagMs,
      noEvent,
      collectedAfterMs,
      collected,
      settledSum,
    };
  } finally {
    await live.close();
  }
}

interface RowsPage {
  items: { requestId: string | null; paidAt: string | null }[];
}

/** The requests of a campaign's rows, and which of them show a linked payment. */
async function roundRows(admin: Session, id: string): Promise<RowsPage["items"]> {
  const res = await admin.json<RowsPage>(`/api/campaigns/${id}/rows`, { signal: AbortSignal.timeout(30_000) });
  if (res.status !== 200 || !res.data) throw new Error(`reading the rows of ${id}: HTTP ${res.status} ${res.message}`);
  return res.data.items;
}

/**
 * The second round (issue 36): a campaign of people who wait, left unanswered; its ask-again round of the unanswered;
 * then each person pays the round's request. Each payment has two open requests to choose from, so linking asks the
 * service which one was accepted: measured from the webhook's 200 to the round's request accepted (live event), and
 * how many of the round's payments were left unlinked.
 */
async function measureChase(ctx: BenchContext, admin: Session, apiUrl: string): Promise<ChaseResult> {
  const rows = ctx.options.lag.chaseRows;
  const control = sandboxControl(apiUrl);
  // Plain tags: made-up people who wait for someone to answer for them.
  const { view: first } = await uploadCampaign(admin, `Bench chase, ${rows} rows`, campaignCsv("chase.lag", rows));
  const start = async (id: string) => {
    const res = await admin.json<CampaignView>(`/api/campaigns/${id}/start`, { method: "POST", body: "{}" });
    if (res.status !== 200) throw new Error(`starting campaign ${id}: HTTP ${res.status} ${res.message}`);
  };
  const sent = async (id: string) => {
    for (const stop = Date.now() + ctx.options.lag.capMs; Date.now() < stop; await sleep(250)) {
      const view = await readCampaign(admin, id);
      if (view.status === "done") return;
    }
    throw new Error(`campaign ${id} not sent within the cap`);
  };
  await start(first.id);
  await sent(first.id);
  const asked = await admin.json<{ campaign: CampaignView }>(`/api/campaigns/${first.id}/ask-again`, {
    method: "POST",
    body: JSON.stringify({ include: ["unanswered"], unansweredForHours: 0 }),
  });
  if (asked.status !== 201 || !asked.data) throw new Error(`ask again: HTTP ${asked.status} ${asked.message}`);
  const round = asked.data.campaign.id;
  await start(round);
  await sent(round);
  const requests = (await roundRows(admin, round)).flatMap((r) => (r.requestId ? [r.requestId] : []));
  if (requests.length !== rows) throw new Error(`the round sent ${requests.length} of ${rows} requests`);
  ctx.log(`lag: chase round of ${rows} sent; each person now pays the round's request`);

  const live = await SseClient.open(admin, "/api/live", { keep: rows * 40 });
  try {
    const wanted = new Set(requests);
    const accepted = new Map<string, number>();
    for (const id of requests) await control.accept(id);
    let seen = 0;
    for (const stop = performance.now() + 120_000; accepted.size < rows && performance.now() < stop;) {
      await live.waitFor(() => true, 1_000, performance.now());
      const events = live.events;
      for (let i = Math.max(0, events.length - (live.received - seen)); i < events.length; i++) {
        const e = events[i];
        if (e?.event !== "request.updated") continue;
        const data = JSON.parse(e.data) as { requestId: string | null; status: string };
        if (data.status === "accepted" && data.requestId && wanted.has(data.requestId) && !accepted.has(data.requestId))
          accepted.set(data.requestId, performance.timeOrigin + e.at);
      }
      seen = live.received;
    }
    const deliveries = (await control.deliveries()).filter((d) => d.outcome === "delivered" && wanted.has(String(d.request_id)));
    const lags: number[] = [];
    for (const d of deliveries) {
      const ok = d.attempts.find((a) => a.status !== undefined && a.status >= 200 && a.status < 300);
      const event = accepted.get(String(d.request_id));
      if (ok && event !== undefined) lags.push(event - Date.parse(ok.answeredAt));
    }
    // Every payment of the round linked to its request (the row shows who paid), or counted unlinked after 60 s.
    let unlinked = rows;
    for (const stop = Date.now() + 60_000; Date.now() < stop; await sleep(250)) {
      unlinked = (await roundRows(admin, round)).filter((r) => r.paidAt === null).length;
      if (unlinked === 0) break;
    }
    const lagMs = summarize(lags);
    ctx.log(`lag: chase round p50 ${lagMs.p50} ms, p95 ${lagMs.p95} ms over ${lagMs.n}; ${unlinked} of ${rows} payments unlinked`);
    return { rows, lagMs, unlinked };
  } finally {
    await live.close();
  }
}
