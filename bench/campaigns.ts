// Benchmark 5: a collection campaign on its own dashboard (SERVICE_RATE_LIMIT_PER_MIN set) and its own sandbox, so
// the sandbox's call counts are this benchmark's alone. Times the upload of a campaign file and of a larger one
// (parse and check; the round trip, the server's time being most of it), then starts the campaign and, while it
// sends, samples the sandbox's cumulative API-host call counts every second and makes one single request as a
// person every two seconds. Afterwards: the pace achieved against the background share of the budget, the most
// API-host calls in any 60 s, rows the sandbox got twice, and the person's latency.
import { randomUUID } from "node:crypto";
import { mkdtempSync } from "node:fs";
import path from "node:path";
import { performance } from "node:perf_hooks";

import { DEMO_ADMIN } from "@/lib/auth/demo";
import type { CampaignCounts, CampaignView } from "@/lib/client/campaigns/view";
import { checksShare, sendsShareWhileChecking } from "@/lib/service/budget";
import { startSandbox } from "@/sandbox/server";
import { fakeAddress as nextClientIp } from "@/tests/support/sign-in";
import { sleep } from "@/tests/support/wait-for";

import type { BenchContext } from "./context";
import { startDashboard } from "./dashboard";
import { campaignCsv, freshTag, uploadCampaign } from "./dashboard-api";
import { freePorts, SANDBOX_PORTS, SERVER_PORTS } from "./ports";
import { signIn, type Session } from "./session";
import { round, summarize, type Summary } from "./stats";

const PEER_REQUESTS = "/api/v1/transfer/request/peer";
/** Every route of the API host the dashboard calls (the verify host, counted by the same sandbox, is left out). */
const API_HOST_ROUTES = {
  create: `POST ${PEER_REQUESTS}`,
  status: `GET ${PEER_REQUESTS}/:request_id`,
  balance: "GET /api/v1/business/balance",
} as const;
const WINDOW_MS = 60_000;

export interface CampaignsResult {
  rows: number;
  rateLimitPerMin: number;
  /** The pace a campaign may send at while its rows wait: the background share less the status checks' pace. */
  allowedPerMin: number;
  /** Upload round trips (multipart POST /api/campaigns → 201), milliseconds. */
  upload: { rows: number; bytes: number; ms: number };
  parse: { rows: number; bytes: number; ms: number };
  /** The campaign reached `done` before the cap. */
  finished: boolean;
  status: string;
  capMs: number;
  /** startedAt → finishedAt of the campaign (the server's clock) when it finished; else start → the last read on the bench's. */
  elapsedMs: number;
  elapsedClock: "server" | "bench";
  counts: CampaignCounts;
  /** Rows that left the queue for the service: sent + accepted + declined + failed. */
  rowsSent: number;
  pacePerMin: number;
  /** pacePerMin / allowedPerMin. */
  paceRatio: number;
  /**
   * Rows sent in each 60 s window wholly inside the sending (1 s steps; null when it took under 60 s). The budget's
   * window lets a campaign send a minute's share at once, so a campaign of a few minutes has a pace above the
   * allowed one; a full window shows what it keeps up.
   */
  rowsPer60s: { windows: number; min: number; median: number; max: number } | null;
  apiHost: {
    /** Calls during the campaign (from just before the start to the last sample), by route. */
    byRoute: Record<string, number>;
    total: number;
    samples: number;
    /** The most API-host calls between two samples at most 60 s apart. */
    maxIn60s: number;
    overBudget: number;
    /** The same for background calls: all calls less the person's requests that reached the service (approximate by a call or two). */
    backgroundMaxIn60s: number;
  };
  /** Status reads (GET …/:request_id): the reconciler's, which share the background budget with the campaign. */
  reconcilerCalls: { total: number; perMinute: number };
  /** The status checks' pace (checksShare): what the reconciler is owed while the campaign sends. */
  checksPerMin: number;
  /** Requests the sandbox holds for the campaign's tags; `missing`: rows the dashboard shows at the service that the sandbox lacks. */
  sandbox: { campaignRequests: number; distinctRows: number; sentTwice: number; missing: number };
  person: { everyMs: number; attempts: number; failed: number; failures: string[]; latencyMs: Summary };
}

interface Sample {
  /** Milliseconds since the start was asked for. */
  at: number;
  all: number;
  create: number;
  status: number;
  balance: number;
}

interface PersonCall {
  /** Milliseconds since the start, when the answer came. */
  at: number;
  ms: number;
  status: number;
  reached: boolean;
  message: string;
}

async function readCampaign(admin: Session, id: string): Promise<CampaignView> {
  const res = await admin.json<CampaignView>(`/api/campaigns/${id}`, { signal: AbortSignal.timeout(30_000) });
  if (res.status !== 200 || !res.data) throw new Error(`reading campaign ${id}: HTTP ${res.status} ${res.message}`);
  return res.data;
}

async function sandboxCalls(apiUrl: string): Promise<Record<string, number>> {
  const res = await fetch(`${apiUrl}/sandbox/stats`, { signal: AbortSignal.timeout(10_000) });
  if (!res.ok) throw new Error(`sandbox stats: HTTP ${res.status}`);
  return ((await res.json()) as { calls: Record<string, number> }).calls;
}

async function sandboxTags(apiUrl: string): Promise<string[]> {
  const res = await fetch(`${apiUrl}/sandbox/requests`, { signal: AbortSignal.timeout(60_000) });
  if (!res.ok) throw new Error(`sandbox requests: HTTP ${res.status}`);
  const body = (await res.json()) as { data: { requests: { requested_sent_to: { tag: string } }[] } };
  return body.data.requests.map((r) => r.requested_sent_to.tag.toLowerCase());
}

/** The most `value` grew between two samples at most 60 s apart (values only grow, so the earliest such sample is the one). */
function maxIn60s(samples: readonly Sample[], value: (s: Sample) => number): number {
  let best = 0;
  let from = 0;
  for (let to = 0; to < samples.length; to++) {
    const end = samples[to] as Sample;
    while ((samples[from] as Sample).at < end.at - WINDOW_MS) from += 1;
    best = Math.max(best, value(end) - value(samples[from] as Sample));
  }
  return best;
}

const rowsOut = (c: CampaignCounts) => c.sent + c.accepted + c.declined + c.failed;

/** Rows sent in every 60 s window from one progress sample on, among those the samples cover (they end when it is done). */
function fullWindows(progress: readonly { at: number; sent: number }[]): CampaignsResult["rowsPer60s"] {
  const end = progress[progress.length - 1];
  if (!end) return null;
  const counts: number[] = [];
  let to = 0;
  for (const start of progress) {
    if (start.at + WINDOW_MS > end.at) break;
    while ((progress[to] as { at: number }).at < start.at + WINDOW_MS) to += 1;
    // The last sample before the window's end.
    counts.push((progress[to - 1] as { sent: number }).sent - start.sent);
  }
  if (counts.length === 0) return null;
  counts.sort((a, b) => a - b);
  return {
    windows: counts.length,
    min: counts[0] as number,
    median: counts[Math.floor(counts.length / 2)] as number,
    max: counts[counts.length - 1] as number,
  };
}

async function sleepUntil(at: number): Promise<void> {
  const wait = at - performance.now();
  if (wait > 0) await sleep(wait);
}

export async function benchCampaigns(ctx: BenchContext): Promise<CampaignsResult> {
  const o = ctx.options.campaigns;
  // The rows wait for a person, so the status checks they are owed keep their room (DESIGN §9's order).
  const allowedPerMin = sendsShareWhileChecking(o.rateLimitPerMin);
  const sandboxPort = await freePorts(...SANDBOX_PORTS, 3);
  const sandbox = await startSandbox({ port: sandboxPort, apiKey: ctx.apiKey });
  try {
    const dashboard = await startDashboard({
      root: ctx.options.root,
      distDir: ctx.distDir,
      port: await freePorts(...SERVER_PORTS),
      sandboxPort,
      apiKey: ctx.apiKey,
      dataDir: mkdtempSync(path.join(ctx.tempRoot, "campaigns-")),
      env: { SERVICE_RATE_LIMIT_PER_MIN: String(o.rateLimitPerMin) },
    });
    try {
      const admin = await signIn(dashboard.url, DEMO_ADMIN.email, DEMO_ADMIN.password, nextClientIp());
      return await measure(ctx, admin, sandbox.apiUrl, allowedPerMin);
    } finally {
      await dashboard.stop();
    }
  } finally {
    await sandbox.close();
  }
}

async function measure(ctx: BenchContext, admin: Session, apiUrl: string, allowedPerMin: number): Promise<CampaignsResult> {
  const o = ctx.options.campaigns;
  const campaignUpload = await uploadCampaign(admin, `Bench campaign, ${o.rows} rows`, campaignCsv("bench.c", o.rows));
  const campaign = campaignUpload.view;
  if (campaign.counts.total !== o.rows || campaign.counts.invalid !== 0 || campaign.status !== "draft") {
    throw new Error(`the ${o.rows}-row upload made ${campaign.counts.total} rows, ${campaign.counts.invalid} invalid, status ${campaign.status}`);
  }
  ctx.log(`campaigns: ${o.rows}-row upload in ${round(campaignUpload.ms)} ms`);
  const parseUpload = await uploadCampaign(admin, `Bench parse check, ${o.parseRows} rows`, campaignCsv("bench.p", o.parseRows));
  if (parseUpload.view.counts.total !== o.parseRows || parseUpload.view.counts.invalid !== 0) {
    throw new Error(`the ${o.parseRows}-row upload made ${parseUpload.view.counts.total} rows, ${parseUpload.view.counts.invalid} invalid`);
  }
  ctx.log(`campaigns: ${o.parseRows}-row upload (not started) in ${round(parseUpload.ms)} ms`);

  const sample = async (t0: number): Promise<Sample> => {
    const asked = performance.now();
    const calls = await sandboxCalls(apiUrl);
    // The counts are as of some moment during the exchange: its middle.
    const at = (asked + performance.now()) / 2 - t0;
    const create = calls[API_HOST_ROUTES.create] ?? 0;
    const status = calls[API_HOST_ROUTES.status] ?? 0;
    const balance = calls[API_HOST_ROUTES.balance] ?? 0;
    return { at, all: create + status + balance, create, status, balance };
  };
  const before = await sandboxCalls(apiUrl);
  const t0 = performance.now();
  const samples: Sample[] = [await sample(t0)];
  const started = await admin.json<CampaignView>(`/api/campaigns/${campaign.id}/start`, { method: "POST", body: "{}" });
  if (started.status !== 200) throw new Error(`starting the campaign: HTTP ${started.status} ${started.message}`);
  ctx.log(`campaigns: started; waiting for done (at most ${Math.round(o.capMs / 1000)} s)`);

  const deadline = t0 + o.capMs;
  const persons: PersonCall[] = [];
  const inFlight: Promise<void>[] = [];
  let last: CampaignView = started.data;
  const progress: { at: number; sent: number }[] = [{ at: 0, sent: 0 }];
  let finished = false;
  let stop = false;
  let stoppedAt = 0;

  const person = async () => {
    const t = performance.now();
    const res = await admin
      .json<{ requestId: string | null }>("/api/requests", {
        method: "POST",
        body: JSON.stringify({ tag: freshTag("cmp.p"), amount: "250.00", description: "Bench person during a campaign", idempotencyKey: randomUUID() }),
        signal: AbortSignal.timeout(30_000),
      })
      .catch((error: unknown) => ({ status: 0, data: null, message: error instanceof Error ? error.message : String(error) }));
    const now = performance.now();
    const reached = res.status === 201 && Boolean(res.data?.requestId);
    persons.push({ at: now - t0, ms: now - t, status: res.status, reached, message: reached ? "" : `HTTP ${res.status} ${res.message}`.slice(0, 160) });
  };

  const loops = [
    // The campaign's status, every second, until done or the cap; then at least a few person requests more.
    async () => {
      let misses = 0;
      for (let k = 1; !stop && performance.now() < deadline; k++) {
        await sleepUntil(t0 + k * o.pollEveryMs);
        try {
          const asked = performance.now();
          last = await readCampaign(admin, campaign.id);
          misses = 0;
          progress.push({ at: (asked + performance.now()) / 2 - t0, sent: rowsOut(last.counts) });
        } catch (error) {
          if (++misses >= 10) throw error;
          continue;
        }
        if (last.status === "done" || last.status === "cancelled") {
          finished = last.status === "done";
          break;
        }
      }
      while (!stop && inFlight.length < o.minPersonRequests && performance.now() < deadline + 30_000) await sleep(200);
    },
    // The sandbox's cumulative API-host counts, every second.
    async () => {
      for (let k = 1; !stop; k++) {
        await sleepUntil(t0 + k * o.sampleEveryMs);
        if (!stop) samples.push(await sample(t0));
      }
    },
    // One single request as a person every 2 s, each on its own (a slow one does not delay the next).
    async () => {
      for (let k = 0; !stop; k++) {
        await sleepUntil(t0 + 500 + k * o.personEveryMs);
        if (!stop) inFlight.push(person());
      }
    },
  ].map((loop) =>
    // The status loop decides when it is over; a failing loop ends them all.
    loop().finally(() => {
      if (stop) return;
      stop = true;
      stoppedAt = performance.now();
    }),
  );
  await Promise.all(loops);
  await Promise.all(inFlight);
  samples.push(await sample(t0));
  const after = await sandboxCalls(apiUrl);
  if (!finished) ctx.log(`campaigns: not done after ${Math.round((stoppedAt - t0) / 1000)} s (status ${last.status})`);
  const finalAsked = performance.now();
  last = await readCampaign(admin, campaign.id);
  const finalAt = (finalAsked + performance.now()) / 2;

  // Rows the sandbox holds, by tag: each campaign row has its own tag.
  const rowTags = new Set(Array.from({ length: o.rows }, (_, i) => `bench.c${i + 1}`));
  const held = (await sandboxTags(apiUrl)).filter((t) => rowTags.has(t));
  const distinctRows = new Set(held).size;
  const c = last.counts;
  const rowsSent = rowsOut(c);
  if (rowsSent === 0) throw new Error(`the campaign sent no rows in ${Math.round((stoppedAt - t0) / 1000)} s (status ${last.status})`);

  const serverElapsed = finished && last.startedAt && last.finishedAt ? Date.parse(last.finishedAt) - Date.parse(last.startedAt) : Number.NaN;
  const elapsedClock = Number.isFinite(serverElapsed) && serverElapsed > 0 ? "server" : "bench";
  // Not done: the rows of the last read over the time up to it.
  const elapsedMs = elapsedClock === "server" ? serverElapsed : finalAt - t0;
  const pacePerMin = (rowsSent * 60_000) / elapsedMs;

  const byRoute: Record<string, number> = {};
  for (const [route, n] of Object.entries(after)) {
    const d = n - (before[route] ?? 0);
    if (d > 0) byRoute[route] = d;
  }
  const maxAll = maxIn60s(samples, (s) => s.all);
  const reachedBy = (at: number) => persons.filter((p) => p.reached && p.at <= at).length;
  const backgroundMax = maxIn60s(samples, (s) => s.all - reachedBy(s.at));
  const lastSample = samples[samples.length - 1] as Sample;
  const firstSample = samples[0] as Sample;
  const reconcilerTotal = lastSample.status - firstSample.status;
  const watchedMs = lastSample.at - firstSample.at;

  const failures = persons.filter((p) => !p.reached);
  const latencies = persons.filter((p) => p.reached).map((p) => p.ms);
  if (latencies.length === 0)
    throw new Error(`campaigns: none of the person's ${persons.length} single requests went through (${failures[0]?.message ?? "none made"})`);

  const result: CampaignsResult = {
    rows: o.rows,
    rateLimitPerMin: o.rateLimitPerMin,
    allowedPerMin,
    upload: { rows: o.rows, bytes: campaignUpload.bytes, ms: round(campaignUpload.ms) },
    parse: { rows: o.parseRows, bytes: parseUpload.bytes, ms: round(parseUpload.ms) },
    finished,
    status: last.status,
    capMs: o.capMs,
    elapsedMs: round(elapsedMs, 0),
    elapsedClock,
    counts: c,
    rowsSent,
    pacePerMin: round(pacePerMin),
    paceRatio: round(pacePerMin / allowedPerMin, 3),
    rowsPer60s: fullWindows(progress),
    apiHost: {
      byRoute,
      total: lastSample.all - firstSample.all,
      samples: samples.length,
      maxIn60s: maxAll,
      overBudget: Math.max(0, maxAll - o.rateLimitPerMin),
      backgroundMaxIn60s: backgroundMax,
    },
    checksPerMin: checksShare(o.rateLimitPerMin),
    reconcilerCalls: { total: reconcilerTotal, perMinute: round(watchedMs > 0 ? (reconcilerTotal * 60_000) / watchedMs : 0) },
    sandbox: {
      campaignRequests: held.length,
      distinctRows,
      sentTwice: held.length - distinctRows,
      missing: Math.max(0, c.sent + c.accepted + c.declined - distinctRows),
    },
    person: {
      everyMs: o.personEveryMs,
      attempts: persons.length,
      failed: failures.length,
      failures: [...new Set(failures.map((f) => f.message))].slice(0, 5),
      latencyMs: summarize(latencies),
    },
  };
  ctx.log(
    `campaigns: ${rowsSent} rows in ${round(elapsedMs / 1000)} s = ${result.pacePerMin}/min (allowed ${allowedPerMin}/min); max ${maxAll} API-host calls in 60 s; ` +
      `${result.sandbox.sentTwice} sent twice; person p95 ${result.person.latencyMs.p95} ms over ${latencies.length}`,
  );
  return result;
}
