// The issue's targets, one line each: measured value, target, met or missed ("info" where there is no target).
import type { AmplificationResult } from "./amplification";
import type { ApiBenchResult } from "./api";
import type { PayPagesResult } from "./pay-pages";
import type { CampaignLagResult } from "./campaign-lag";
import type { CampaignsResult } from "./campaigns";
import type { PayersResult } from "./payers";
import type { ExceptionsResult } from "./exceptions";
import type { PlansResult } from "./plans";
import type { DayBookResult } from "./day-book";
import type { NotificationsBenchResult, OutboundBenchResult } from "./consumers";
import type { ExportsResult } from "./exports";
import type { FollowUpResult } from "./follow-up";
import type { IntakeResult } from "./intake";
import type { LiveLatencyResult } from "./live-latency";
import type { NextFloorResult } from "./next-floor";
import type { PageTimeResult } from "./page-time";
import type { PageWeightResult } from "./page-weight";
import type { ScaleOutResult, ScaleOutRound } from "./scale-out";
import { round } from "./stats";

export type Verdict = "met" | "missed" | "info";

export interface TargetLine {
  bench: string;
  metric: string;
  value: string;
  target: string;
  verdict: Verdict;
}

export interface BenchResults {
  intake: IntakeResult[];
  amplification: AmplificationResult | null;
  liveLatency: LiveLatencyResult | null;
  pageWeight: PageWeightResult | null;
  followUp: FollowUpResult | null;
  scaleOut: ScaleOutResult | null;
  pageTime: PageTimeResult | null;
  campaigns: CampaignsResult | null;
  lag: CampaignLagResult | null;
  nextFloor: NextFloorResult | null;
  payers: PayersResult | null;
  plans: PlansResult | null;
  dayBook: DayBookResult | null;
  exports: ExportsResult | null;
  exceptions: ExceptionsResult | null;
  notifications: NotificationsBenchResult | null;
  outbound: OutboundBenchResult | null;
  api: ApiBenchResult | null;
  payPages: PayPagesResult | null;
}

const routesOf = (byRoute: Record<string, number>) =>
  Object.entries(byRoute)
    .sort((x, y) => y[1] - x[1])
    .map(([route, n]) => `${route} ${n}`)
    .join("; ") || "none";
const kb = (bytes: number) => `${(bytes / 1000).toFixed(1)} kB`;
const check = (ok: boolean): Verdict => (ok ? "met" : "missed");

function floorLines(f: NextFloorResult): TargetLine[] {
  const bench = "1. Next.js floor";
  const side = (s: NextFloorResult["next"]) => `${s.perSecond}/s (best of ${s.roundsPerSecond.join(", ")}; median ${s.medianPerSecond}/s)`;
  return [
    {
      bench,
      metric: `empty route handler, blank Next.js app (next start), ${f.requests} GETs at ${f.concurrency}`,
      value: side(f.next),
      target: "",
      verdict: "info",
    },
    { bench, metric: "bare node:http server's /health, same GETs", value: side(f.bare), target: "", verdict: "info" },
    {
      bench,
      metric: "Next.js floor: empty route / bare (what intake's dashboard / bare ratio is read against)",
      value: `${f.ratio}× (best rounds); ${f.medianRatio}× (median rounds)`,
      target: "",
      verdict: "info",
    },
  ];
}

function intakeLines(r: IntakeResult): TargetLine[] {
  const bench = `1. intake (${r.database})`;
  const side = (s: IntakeResult["dashboard"]) =>
    `${s.perSecond}/s${s.roundsPerSecond && s.roundsPerSecond.length > 1 ? ` (best of ${s.roundsPerSecond.join(", ")}; median ${s.medianPerSecond ?? s.perSecond}/s)` : ""}; p50 ${s.latencyMs.p50} ms, p99 ${s.latencyMs.p99} ms; ${s.non2xx + s.unanswered} not 2xx; lost ${s.lost}, duplicates ${s.duplicates}`;
  const d = r.dashboard;
  return [
    {
      bench,
      metric: `dashboard (next start), ${d.deliveries} deliveries (${d.repeats} repeats) at ${d.concurrency}`,
      value: side(d),
      target: "",
      verdict: "info",
    },
    { bench, metric: "bare node:http server, same deliveries", value: side(r.bare), target: "", verdict: "info" },
    {
      bench,
      metric: "throughput dashboard / bare",
      value: `${r.ratio}× (best rounds); ${r.medianRatio}× (median rounds)`,
      target: "≥ 0.5×",
      verdict: check(r.ratio >= 0.5),
    },
    {
      bench,
      metric: "dashboard: lost deliveries",
      value: `${d.lost} of ${d.uniqueUuids * (d.roundsPerSecond?.length ?? 1)}`,
      target: "0",
      verdict: check(d.lost === 0),
    },
    { bench, metric: "dashboard: duplicate rows", value: String(d.duplicates), target: "0", verdict: check(d.duplicates === 0) },
  ];
}

function amplificationLines(a: AmplificationResult): TargetLine[] {
  const bench = "2. service calls";
  return [
    {
      bench,
      metric: `${a.viewers} viewers × (balance + ${a.pendingRequests} request statuses) every ${a.pollIntervalMs / 1000} s for ${Math.round(a.durationMs / 1000)} s, /api/live open; SERVICE_RATE_LIMIT_PER_MIN ${a.rateLimitPerMin}, so the budget does not cap the count`,
      value: `${a.viewerCalls.total} viewer calls (${a.viewerCalls.perMinute}/min, ${a.viewerCalls.failed} failed); ${a.liveStreamsOpenAtEnd} live streams open at the end`,
      target: "",
      verdict: "info",
    },
    { bench, metric: "sandbox calls by route", value: routesOf(a.sandboxCalls.byRoute), target: "", verdict: "info" },
    {
      bench,
      metric: "balance calls reaching the sandbox",
      value: `${a.sandboxCalls.balance} in ${Math.round(a.durationMs / 1000)} s`,
      target: `≤ 1 per ${a.balanceCacheTtlMs / 1000} s cache period (≤ ${a.balanceCallsAllowed})`,
      verdict: check(a.sandboxCalls.balance <= a.balanceCallsAllowed),
    },
    {
      bench,
      metric: "all sandbox calls per minute",
      value: `${a.sandboxCalls.perMinute}/min (${a.amplification} per viewer call)`,
      target: "< 100/min",
      verdict: check(a.sandboxCalls.perMinute < 100),
    },
  ];
}

function liveLines(l: LiveLatencyResult): TargetLine[] {
  const bench = "3. live latency";
  const describe = (s: LiveLatencyResult["accepts"]) =>
    `p50 ${s.latencyMs.p50} ms, p95 ${s.latencyMs.p95} ms, max ${s.latencyMs.max} ms over ${s.latencyMs.n}${s.timeouts ? `; ${s.timeouts} never arrived` : ""}`;
  return [
    {
      bench,
      metric: "accept → request.updated on /api/live",
      value: describe(l.accepts),
      target: "p95 < 500 ms",
      verdict: check(l.accepts.timeouts === 0 && l.accepts.latencyMs.p95 < 500),
    },
    { bench, metric: "decline (no webhook) → reconciler → request.updated", value: describe(l.declines), target: "", verdict: "info" },
  ];
}

function pageLines(p: PageWeightResult): TargetLine[] {
  const bench = "4. page weight";
  const lines: TargetLine[] = p.pages.map((page) => ({
    bench,
    metric: `first-load JS ${page.page}`,
    value: `${kb(page.gzipBytes)} gzip (${page.scripts} scripts)`,
    target: "",
    verdict: "info" as const,
  }));
  lines.push({
    bench,
    metric: "blank Next.js 16 page (bench/blank-app)",
    value: `${kb(p.blank.gzipBytes)} gzip (${p.blank.scripts} scripts)`,
    target: "",
    verdict: "info",
  });
  lines.push({
    bench,
    metric: `heaviest page (${p.heaviest.page}) / blank page`,
    value: `${kb(p.heaviest.gzipBytes)} / ${kb(p.blank.gzipBytes)} = ${p.ratio}×`,
    target: "≤ 1.5×",
    verdict: check(p.ratio <= 1.5),
  });
  if (p.payPage && p.payRatio !== null)
    lines.push({
      bench,
      metric: "public pay page (/pay/[slug]) / blank page; its proof-of-work worker loads after, measured apart",
      value: `${kb(p.payPage.gzipBytes)} / ${kb(p.blank.gzipBytes)} = ${p.payRatio}×`,
      target: "≤ 1.2×",
      verdict: check(p.payRatio <= 1.2),
    });
  return lines;
}

function campaignLines(c: CampaignsResult): TargetLine[] {
  const bench = "5. campaigns";
  const n = (v: number) => v.toLocaleString("en-US");
  const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
  const k = c.counts;
  const p = c.person.latencyMs;
  return [
    {
      bench,
      metric: `${n(c.rows)}-row campaign, SERVICE_RATE_LIMIT_PER_MIN ${c.rateLimitPerMin}, a person's single request every ${c.person.everyMs / 1000} s`,
      value: `${c.finished ? "done" : `${c.status}, not done at the ${Math.round(c.capMs / 1000)} s cap`} after ${seconds(c.elapsedMs)}; sent ${k.sent}, accepted ${k.accepted}, declined ${k.declined}, failed ${k.failed}, queued ${k.queued}, skipped ${k.skipped}`,
      target: "",
      verdict: "info",
    },
    {
      bench,
      metric: `upload a ${n(c.upload.rows)}-row file (round trip)`,
      value: `${Math.round(c.upload.ms)} ms (${kb(c.upload.bytes)})`,
      target: "",
      verdict: "info",
    },
    {
      bench,
      metric: `parse and check a ${n(c.parse.rows)}-row file (upload round trip)`,
      value: `${Math.round(c.parse.ms)} ms (${kb(c.parse.bytes)})`,
      target: "< 2 s",
      verdict: check(c.parse.ms < 2000),
    },
    {
      bench,
      metric: `pace achieved / allowed (⌊2/3 × ${c.rateLimitPerMin}⌋ less ${c.checksPerMin} for status checks, per min)`,
      value: `${n(c.rowsSent)} rows in ${seconds(c.elapsedMs)} = ${c.pacePerMin}/min ÷ ${c.allowedPerMin}/min = ${c.paceRatio}`,
      target: "≥ 0.95",
      verdict: check(c.paceRatio >= 0.95),
    },
    {
      bench,
      metric: "rows sent per 60 s window while sending (1 s steps)",
      value: c.rowsPer60s
        ? `median ${c.rowsPer60s.median}, min ${c.rowsPer60s.min}, max ${c.rowsPer60s.max} over ${c.rowsPer60s.windows} windows (allowed ${c.allowedPerMin})`
        : "none: it took under 60 s",
      target: "",
      verdict: "info",
    },
    {
      bench,
      metric: "API-host calls over the budget in any 60 s window (1 s samples)",
      value: `${c.apiHost.overBudget} (at most ${c.apiHost.maxIn60s} of ${c.rateLimitPerMin}; background about ${c.apiHost.backgroundMaxIn60s} of ${c.allowedPerMin})`,
      target: "0",
      verdict: check(c.apiHost.overBudget === 0),
    },
    {
      bench,
      metric: "status checks meanwhile / their pace (they come before new sends)",
      value: `${c.reconcilerCalls.total} (${c.reconcilerCalls.perMinute}/min ÷ ${c.checksPerMin}/min = ${round(c.reconcilerCalls.perMinute / c.checksPerMin, 2)})`,
      target: "≥ 0.9",
      verdict: check(c.reconcilerCalls.perMinute >= 0.9 * c.checksPerMin),
    },
    {
      bench,
      metric: "rows sent twice (sandbox requests by tag)",
      value: `${c.sandbox.sentTwice} (${c.sandbox.campaignRequests} requests for ${c.sandbox.distinctRows} rows${c.sandbox.missing ? `; ${c.sandbox.missing} sent rows missing at the sandbox` : ""})`,
      target: "0",
      verdict: check(c.sandbox.sentTwice === 0 && c.sandbox.missing === 0),
    },
    {
      bench,
      metric: "a person's single request during the campaign",
      value: `p50 ${p.p50} ms, p95 ${p.p95} ms, max ${p.max} ms over ${p.n}${c.person.failed ? `; ${c.person.failed} failed (${c.person.failures[0] ?? ""})` : ""}`,
      target: "p95 < 1 s",
      verdict: check(c.person.failed === 0 && p.p95 < 1000),
    },
  ];
}

function lagLines(r: CampaignLagResult): TargetLine[] {
  const bench = "9. campaign lag";
  const l = r.lagMs;
  const missing = r.finished ? "" : `; only ${l.n} of ${r.rows} accepted within ${Math.round(r.capMs / 60_000)} min`;
  return [
    {
      bench,
      metric: `${r.rows}-row campaign whose people accept at once, SERVICE_RATE_LIMIT_PER_MIN ${r.budgetPerMin} (the default): webhook 200 → request and campaign row accepted (live event)`,
      value: `p50 ${l.p50} ms, p95 ${l.p95} ms, max ${l.max} ms over ${l.n}${r.noEvent ? `; ${r.noEvent} payments without the event` : ""}${missing} (campaign done in ${round(r.elapsedMs / 1000)} s)`,
      target: "p95 < 2 s",
      verdict: check(r.finished && r.noEvent === 0 && l.p95 < 2000),
    },
    {
      bench,
      metric: `second round: ${r.chase.rows} people left unanswered, asked again, pay the round (two open requests each): webhook 200 → the round's request accepted`,
      value: `p50 ${r.chase.lagMs.p50} ms, p95 ${r.chase.lagMs.p95} ms over ${r.chase.lagMs.n}`,
      target: "p95 < 2 s",
      verdict: check(r.chase.lagMs.n === r.chase.rows && r.chase.lagMs.p95 < 2000),
    },
    {
      bench,
      metric: "second round: its payments left unlinked (linking asks the service which request was accepted)",
      value: `${r.chase.unlinked} of ${r.chase.rows}`,
      target: "0",
      verdict: check(r.chase.unlinked === 0),
    },
    {
      bench,
      metric: "the campaign's collected equals the settled sum of its payments, after the last payment's 200",
      value:
        r.collectedAfterMs === null
          ? `never within 60 s (collected ${r.collected}, settled ${r.settledSum})`
          : `within ${r.collectedAfterMs} ms (${r.collected})`,
      target: "< 5 s",
      verdict: check(r.collectedAfterMs !== null && r.collectedAfterMs < 5000),
    },
  ];
}

function payerLines(r: PayersResult): TargetLine[] {
  const bench = "10. payers";
  return [
    ...r.lists.map((l) => ({
      bench,
      metric: `${l.path}: ${r.largePayers.toLocaleString("en")} payers and ${r.largePayments.toLocaleString("en")} payments against ${r.smallPayers} payers (median of the whole response)`,
      value: `${l.smallMs} → ${l.largeMs} ms = ${l.growth}×`,
      target: "≤ 1.5×",
      verdict: check(l.growth <= 1.5),
    })),
    ...r.heavy.map((h) => ({
      bench,
      metric: `${h.path}: a payer with ${r.heavyRequests.toLocaleString("en")} requests (median)`,
      value: `${h.ms} ms`,
      target: "< 300 ms",
      verdict: check(h.ms < 300),
    })),
  ];
}

function planLines(r: PlansResult): TargetLine[] {
  const bench = "11. plans";
  const size = `${r.members.toLocaleString("en")} members × ${r.periods} periods`;
  return [
    {
      bench,
      metric: `dues board, ${size} (GET /api/plans/:id/board, median of the whole response)`,
      value: `${r.boardMs} ms`,
      target: "< 300 ms",
      verdict: check(r.boardMs < 300),
    },
    { bench, metric: `the same as CSV; only those who owe`, value: `${r.boardCsvMs} ms; ${r.boardOwingMs} ms`, target: "", verdict: "info" },
    {
      bench,
      metric: `making a period of ${r.members.toLocaleString("en")} members (POST …/run, answered once its campaign is sending), over ${r.periods} runs`,
      value: `median ${r.makeMedianMs} ms, slowest ${r.makeMaxMs} ms`,
      target: "< 2 s",
      verdict: check(r.makeMaxMs < 2000),
    },
  ];
}

function dayBookLines(r: DayBookResult): TargetLine[] {
  const bench = "12. day book";
  return [
    {
      bench,
      metric: `a year's day book (${r.days} days) over ${r.payments.toLocaleString("en")} payments and ${r.requests.toLocaleString("en")} requests (median)`,
      value: `${r.yearMs} ms`,
      target: "< 300 ms",
      verdict: check(r.yearMs < 300),
    },
    { bench, metric: "the same as CSV", value: `${r.yearCsvMs} ms`, target: "", verdict: "info" },
  ];
}

function exportLines(r: ExportsResult): TargetLine[] {
  const bench = "14. exports";
  const whole = r.linesPerFile.length === r.people && r.linesPerFile.every((n) => n === r.linesPerFile[0] && n > r.payments);
  return [
    {
      bench,
      metric: `${r.people} people ask for a year's Xero export (${r.payments.toLocaleString("en")} payments) at once: server RSS, baseline → peak`,
      value: `${r.baselineRssMb} → ${r.peakRssMb} MB`,
      target: "< 600 MB",
      verdict: check(r.peakRssMb < 600),
    },
    {
      bench,
      metric: "files open at once; refused 429 with Retry-After (then asked again); every file whole",
      value: `${r.mostOpen}; ${r.refusedWithRetryAfter} of ${r.refusedAtOnce}; ${r.linesPerFile.length} files of ${r.linesPerFile[0] ?? 0} lines`,
      target: "≤ 3 open, all whole",
      verdict: check(r.mostOpen <= 3 && r.refusedWithRetryAfter === r.refusedAtOnce && whole),
    },
    {
      bench,
      metric: "all six files, from the asks to the last byte; /api/health meanwhile (p95)",
      value: `${r.totalMs} ms; ${r.healthP95Ms} ms`,
      target: "",
      verdict: "info",
    },
  ];
}

function notificationLines(r: NotificationsBenchResult): TargetLine[] {
  const bench = "15. notifications";
  return [
    {
      bench,
      metric: `${r.payments.toLocaleString("en")} payments, each e-mailed to ${r.people} people: e-mails accepted by the SMTP sink`,
      value: `${r.received.toLocaleString("en")} of ${r.expected.toLocaleString("en")}`,
      target: "all",
      verdict: check(r.received === r.expected && r.expected > 0),
    },
    {
      bench,
      metric: "payment's 200 → its e-mail accepted by SMTP (p95)",
      value: `${r.latencyMs.p95} ms`,
      target: "< 10,000 ms",
      verdict: check(r.latencyMs.p95 < 10_000),
    },
    { bench, metric: "p50 / max; the whole run", value: `${r.latencyMs.p50} / ${r.latencyMs.max} ms; ${r.totalSeconds} s`, target: "", verdict: "info" },
  ];
}

function outboundLines(r: OutboundBenchResult): TargetLine[] {
  const bench = "16. webhooks out";
  return [
    {
      bench,
      metric: "payment's 200 → first attempt at a good endpoint (p95)",
      value: `${r.firstAttemptMs.p95} ms`,
      target: "< 2,000 ms",
      verdict: check(r.firstAttemptMs.p95 < 2_000),
    },
    {
      bench,
      metric: `${r.events.toLocaleString("en")} events to 3 endpoints (one answering 500): the good two receive all, from the first to the last`,
      value: `${r.goodReceived.join(" and ")} in ${r.allGoodWithinSeconds ?? "—"} s`,
      target: "all within 60 s",
      verdict: check(r.allGoodWithinSeconds !== null && r.allGoodWithinSeconds <= 60),
    },
    { bench, metric: "attempts the failing endpoint got meanwhile", value: `${r.failingAttempts}`, target: "", verdict: "info" },
  ];
}

function apiLines(r: ApiBenchResult): TargetLine[] {
  const bench = "17. api";
  const pair = (c: ApiBenchResult["create"] | ApiBenchResult["list"]) =>
    `v1 p50 ${c.v1.p50} ms, p95 ${c.v1.p95} ms; dashboard p50 ${c.dashboard.p50} ms, p95 ${c.dashboard.p95} ms = ${c.p95Ratio}×${
      c.failed.v1 + c.failed.dashboard ? `; failed ${c.failed.v1} v1, ${c.failed.dashboard} dashboard` : ""
    }`;
  return [
    {
      bench,
      metric: `POST /api/v1/requests (API key, Idempotency-Key) against POST /api/requests (session), ${r.create.requests.toLocaleString("en")} each, interleaved at ${r.concurrency}: p95 v1 / dashboard`,
      value: pair(r.create),
      target: "≤ 1.2×",
      verdict: check(r.create.p95Ratio <= 1.2),
    },
    {
      bench,
      metric: `GET /api/v1/payments?pageSize=25 against GET /api/payments over ${r.list.payments.toLocaleString("en")} payments, ${r.list.reads.toLocaleString("en")} each, interleaved at ${r.concurrency}: p95 v1 / dashboard`,
      value: pair(r.list),
      target: "≤ 1.2×",
      verdict: check(r.list.p95Ratio <= 1.2),
    },
    {
      bench,
      metric: `GET /api/v1/openapi.json (${kb(r.openapi.bytes)}), ${r.openapi.latencyMs.n} one at a time after a warm-up (p95)`,
      value: `p50 ${r.openapi.latencyMs.p50} ms, p95 ${r.openapi.latencyMs.p95} ms`,
      target: "< 50 ms",
      verdict: check(r.openapi.latencyMs.p95 < 50),
    },
  ];
}

function payPageLines(r: PayPagesResult): TargetLine[] {
  const bench = "18. pay pages";
  const flood = `${r.perSecond} submissions/s from ${r.addresses.toLocaleString("en")} addresses for ${Math.round(r.durationMs / 1000)} s (challenges solved first, ${r.solveSeconds} s)`;
  const answers = Object.entries(r.answers)
    .map(([status, n]) => `${status}: ${n}`)
    .join(", ");
  return [
    {
      bench,
      metric: `${flood}: API-host calls in any 60 s, through the flood and the minute after`,
      value: `${r.budget.maxIn60s} of ${r.budget.limitPerMin}; ${r.requestsCreated} requests created`,
      target: `≤ ${r.budget.limitPerMin}`,
      verdict: check(r.budget.overBudget === 0),
    },
    {
      bench,
      metric: `a staff member's POST /api/requests every 2 s meanwhile (p95)`,
      value: `p50 ${r.staffSendMs.p50} ms, p95 ${r.staffSendMs.p95} ms (${r.staffSendMs.n} sent${r.staffFailed ? `, ${r.staffFailed} failed` : ""})`,
      target: "< 1 s",
      verdict: check(r.staffFailed === 0 && r.staffSendMs.p95 < 1_000),
    },
    {
      bench,
      metric: `POST /api/public/pay/:slug round trip on loopback (p95); answers ${answers}`,
      value: `p50 ${r.publicMs.p50} ms, p95 ${r.publicMs.p95} ms`,
      target: "< 300 ms",
      verdict: check(r.publicMs.p95 < 300),
    },
    {
      bench,
      metric: "GET /pay/:slug with every tenth submission (p95)",
      value: `p50 ${r.pageMs.p50} ms, p95 ${r.pageMs.p95} ms`,
      target: "< 300 ms",
      verdict: check(r.pageMs.p95 < 300),
    },
  ];
}

function exceptionLines(r: ExceptionsResult): TargetLine[] {
  return r.paths.map((p) => ({
    bench: "13. exceptions",
    metric: `${p.path}: ${r.largeExceptions.toLocaleString("en")} exceptions against ${r.smallExceptions} (median of the whole response)`,
    value: `${p.smallMs} → ${p.largeMs} ms = ${p.growth}×`,
    target: "≤ 1.5×",
    verdict: check(p.growth <= 1.5),
  }));
}

function followUpLines(f: FollowUpResult): TargetLine[] {
  const bench = "6. follow-up";
  const l = f.latencyMs;
  const missing = f.notAcknowledged + f.notVerified;
  return [
    {
      bench,
      metric: `delivery acknowledged (200) → payment verified, ${f.deliveries} signed deliveries one at a time`,
      value: `p50 ${l.p50} ms, p95 ${l.p95} ms, max ${l.max} ms over ${l.n}${missing ? `; ${f.notAcknowledged} not acknowledged, ${f.notVerified} not verified` : ""} (the delivery itself: p50 ${f.acknowledgeMs.p50} ms)`,
      target: "p95 < 2 s",
      verdict: check(missing === 0 && l.p95 < 2000),
    },
  ];
}

function scaleOutLines(s: ScaleOutResult): TargetLine[] {
  const bench = "7. scale-out";
  if (s.skipped)
    return [{ bench, metric: "service calls per minute at 1, 2 and 3 instances on one Postgres", value: `skipped: ${s.skipped}`, target: "", verdict: "info" }];
  const lines: TargetLine[] = s.rounds.map((r) => {
    const failed = Object.entries(r.viewerCalls.failedByStatus ?? {})
      .map(([status, n]) => `${n} × ${status === "0" ? "no answer" : `HTTP ${status}`}`)
      .join(", ");
    const capped = r.budgetPerMin === s.budgetPerMin;
    return {
      bench,
      metric: `${r.instances} instance${r.instances > 1 ? "s" : ""}, budget ${r.budgetPerMin}/min: ${r.viewers} viewers × (balance + ${r.pendingRequests} request statuses) every ${s.pollIntervalMs / 1000} s for ${Math.round(r.durationMs / 1000)} s, /api/live open`,
      value: `${r.sandboxCalls.perMinute}/min at the sandbox (${routesOf(r.sandboxCalls.byRoute)}); viewers ${r.viewerCalls.total} calls, ${r.viewerCalls.failed} failed${failed ? ` (${failed})` : ""}`,
      target: capped ? `≤ ${s.budgetPerMin}/min (the budget)` : "",
      verdict: capped ? check(r.sandboxCalls.perMinute <= s.budgetPerMin) : "info",
    };
  });
  // The most instances against one, at the default budget (the cap) and far above the load (what sharing saves).
  for (const budget of [s.budgetPerMin, s.highBudgetPerMin]) {
    const rounds = s.rounds.filter((r) => r.budgetPerMin === budget);
    const one = rounds.find((r) => r.instances === 1);
    const most = rounds.reduce<ScaleOutRound | null>((max, r) => (max === null || r.instances > max.instances ? r : max), null);
    if (!one || !most || most === one) continue;
    const allowed = one.sandboxCalls.perMinute * (1 + s.marginShare);
    lines.push({
      bench,
      metric: `${most.instances} instances against 1, same load, budget ${budget}/min`,
      value: `${most.sandboxCalls.perMinute}/min against ${one.sandboxCalls.perMinute}/min = ${one.sandboxCalls.perMinute > 0 ? round(most.sandboxCalls.perMinute / one.sandboxCalls.perMinute, 3) : "∞"}×`,
      target: `≤ 1 instance's + ${Math.round(s.marginShare * 100)}%`,
      verdict: check(most.sandboxCalls.perMinute <= allowed),
    });
  }
  return lines;
}

function pageTimeLines(p: PageTimeResult): TargetLine[] {
  const bench = "8. server time";
  const n = (v: number) => v.toLocaleString("en-US");
  const lines: TargetLine[] = [
    {
      bench,
      metric: `added ${n(p.rows.payments)} payments + ${n(p.rows.deliveries)} delivery-log rows to a copy of a fresh embedded database (both with 100 of each first)`,
      value: `${round(p.rows.ms / 1000)} s; then both databases served at once, each page's medians of ${p.samples} signed-in GETs (after ${p.warmups} warm-ups) on each, alternating: fresh → filled`,
      target: "",
      verdict: "info",
    },
  ];
  for (const page of p.pages) {
    lines.push({
      bench,
      metric: `server time ${page.page}`,
      value: `whole HTML ${page.empty.fullMs} → ${page.filled.fullMs} ms (${page.growth}×; fastest ${page.empty.fastestMs} → ${page.filled.fastestMs} ms); first byte ${page.empty.firstByteMs} → ${page.filled.firstByteMs} ms; HTML ${kb(page.empty.bytes)} → ${kb(page.filled.bytes)}`,
      target: "≤ 1.5×",
      verdict: check(page.growth <= 1.5),
    });
  }
  return lines;
}

export function targetLines(r: BenchResults): TargetLine[] {
  return [
    ...(r.nextFloor ? floorLines(r.nextFloor) : []),
    ...r.intake.flatMap(intakeLines),
    ...(r.amplification ? amplificationLines(r.amplification) : []),
    ...(r.liveLatency ? liveLines(r.liveLatency) : []),
    ...(r.pageWeight ? pageLines(r.pageWeight) : []),
    ...(r.campaigns ? campaignLines(r.campaigns) : []),
    ...(r.followUp ? followUpLines(r.followUp) : []),
    ...(r.scaleOut ? scaleOutLines(r.scaleOut) : []),
    ...(r.pageTime ? pageTimeLines(r.pageTime) : []),
    ...(r.lag ? lagLines(r.lag) : []),
    ...(r.payers ? payerLines(r.payers) : []),
    ...(r.plans ? planLines(r.plans) : []),
    ...(r.dayBook ? dayBookLines(r.dayBook) : []),
    ...(r.exceptions ? exceptionLines(r.exceptions) : []),
    ...(r.exports ? exportLines(r.exports) : []),
    ...(r.notifications ? notificationLines(r.notifications) : []),
    ...(r.outbound ? outboundLines(r.outbound) : []),
    ...(r.api ? apiLines(r.api) : []),
    ...(r.payPages ? payPageLines(r.payPages) : []),
  ];
}
