// The issue's targets, one line each: measured value, target, met or missed ("info" where there is no target).
import type { AmplificationResult } from "./amplification";
import type { IntakeResult } from "./intake";
import type { LiveLatencyResult } from "./live-latency";
import type { PageWeightResult } from "./page-weight";

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
}

const kb = (bytes: number) => `${(bytes / 1000).toFixed(1)} kB`;
const check = (ok: boolean): Verdict => (ok ? "met" : "missed");

function intakeLines(r: IntakeResult): TargetLine[] {
  const bench = `1. intake (${r.database})`;
  const side = (s: IntakeResult["dashboard"]) =>
    `${s.perSecond}/s${s.roundsPerSecond && s.roundsPerSecond.length > 1 ? ` (best of ${s.roundsPerSecond.join(", ")})` : ""}; p50 ${s.latencyMs.p50} ms, p99 ${s.latencyMs.p99} ms; ${s.non2xx + s.unanswered} not 2xx; lost ${s.lost}, duplicates ${s.duplicates}`;
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
    { bench, metric: "throughput dashboard / bare", value: `${r.ratio}×`, target: "≥ 0.5×", verdict: check(r.ratio >= 0.5) },
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
  const routes = Object.entries(a.sandboxCalls.byRoute)
    .sort((x, y) => y[1] - x[1])
    .map(([route, n]) => `${route} ${n}`)
    .join("; ");
  return [
    {
      bench,
      metric: `${a.viewers} viewers × (balance + ${a.pendingRequests} request statuses) every ${a.pollIntervalMs / 1000} s for ${Math.round(a.durationMs / 1000)} s, /api/live open`,
      value: `${a.viewerCalls.total} viewer calls (${a.viewerCalls.perMinute}/min, ${a.viewerCalls.failed} failed); ${a.liveStreamsOpenAtEnd} live streams open at the end`,
      target: "",
      verdict: "info",
    },
    { bench, metric: "sandbox calls by route", value: routes || "none", target: "", verdict: "info" },
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
  return lines;
}

export function targetLines(r: BenchResults): TargetLine[] {
  return [
    ...r.intake.flatMap(intakeLines),
    ...(r.amplification ? amplificationLines(r.amplification) : []),
    ...(r.liveLatency ? liveLines(r.liveLatency) : []),
    ...(r.pageWeight ? pageLines(r.pageWeight) : []),
  ];
}
