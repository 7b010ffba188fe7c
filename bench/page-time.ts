// Benchmark 8: every page's server time on a fresh database and on one with 100,000 payments and 100,000
// delivery-log rows more. The dashboard runs on the embedded database (the default deployment, and there in every run,
// CI's smoke run included). That database belongs to the server process, so: start on a fresh folder, make the sample
// rows the pages with a parameter need, stop; copy the folder; add the rows to the copy with one INSERT … SELECT per
// table through lib/db (bench/bulk-rows.ts); then serve both folders at once and time each page on both, request by
// request in alternation, so that anything else the machine does meanwhile falls on both sides alike (timed one after
// the other, two runs of the same empty database differed by up to 1.9× on a busy machine). No ANALYZE is run: the
// embedded database has no autovacuum, so a real one would not have fresh statistics either.
import { cpSync, mkdtempSync } from "node:fs";
import path from "node:path";
import { performance } from "node:perf_hooks";

import { DEMO_ADMIN } from "@/lib/auth/demo";
import { fakeAddress as nextClientIp } from "@/tests/support/sign-in";

import { addBulkRows, type BulkRows } from "./bulk-rows";
import type { BenchContext } from "./context";
import { startDashboard, type Dashboard } from "./dashboard";
import { builtPages, pageFetcher, resolvePage, samplePageParams, type PageParams, type PageProblem } from "./page-weight";
import { freePorts, SERVER_PORTS } from "./ports";
import { signIn, type Session } from "./session";
import { median, round } from "./stats";

export interface PageTiming {
  /** Medians over the samples: response headers (first byte), and the whole HTML read. */
  firstByteMs: number;
  fullMs: number;
  /** The fastest whole-HTML sample: what the page costs when nothing else on the machine gets in the way. */
  fastestMs: number;
  bytes: number;
}

export interface PageTimeRow {
  route: string;
  page: string;
  empty: PageTiming;
  filled: PageTiming;
  /** filled.fullMs / empty.fullMs. */
  growth: number;
}

export interface PageTimeResult {
  warmups: number;
  samples: number;
  rows: BulkRows;
  pages: PageTimeRow[];
  /** Pages that could not be timed (each makes the run fail). */
  failed: PageProblem[];
  /** The page whose time grew most. */
  worst: PageTimeRow;
}

interface Sample {
  firstByteMs: number;
  fullMs: number;
  bytes: number;
}

async function timeOnce(fetchPage: (page: string) => Promise<Response>, page: string): Promise<Sample> {
  const t0 = performance.now();
  const res = await fetchPage(page);
  const firstByteMs = performance.now() - t0;
  const html = await res.text();
  const fullMs = performance.now() - t0;
  if (res.status !== 200) throw new Error(`page ${page}: HTTP ${res.status}${res.headers.get("location") ? ` → ${res.headers.get("location")}` : ""}`);
  return { firstByteMs, fullMs, bytes: Buffer.byteLength(html) };
}

function summary(taken: readonly Sample[]): PageTiming {
  return {
    firstByteMs: median(taken.map((s) => s.firstByteMs)),
    fullMs: median(taken.map((s) => s.fullMs)),
    fastestMs: round(Math.min(...taken.map((s) => s.fullMs))),
    bytes: Math.round(median(taken.map((s) => s.bytes))),
  };
}

interface Side {
  admin: Session;
  samples: Map<string, Sample[]>;
}

/**
 * Every page `warmups` times over (not counted), then `samples` times over, one request at a time: each page on both
 * sides before the next page (which side first alternating from pass to pass). A page that fails is noted and left out.
 */
async function timePages(ctx: BenchContext, sides: readonly [Side, Side], routes: readonly string[], params: PageParams, failed: PageProblem[]): Promise<void> {
  const { warmups, samples } = ctx.options.pageTime;
  const broken = new Set<string>();
  for (let pass = 0; pass < warmups + samples; pass++) {
    for (const route of routes) {
      const page = resolvePage(route, params);
      if (!page || broken.has(route)) continue;
      for (const side of pass % 2 === 0 ? sides : [sides[1], sides[0]]) {
        try {
          const sample = await timeOnce(pageFetcher(side.admin, route), page);
          if (pass >= warmups) side.samples.set(route, [...(side.samples.get(route) ?? []), sample]);
        } catch (error) {
          broken.add(route);
          failed.push({ route, reason: error instanceof Error ? error.message : String(error) });
          break;
        }
      }
    }
  }
  for (const route of broken) for (const side of sides) side.samples.delete(route);
}

/** Rows on both sides: a full first page of every list (payments 25, delivery log 50). */
const BASE_ROWS = 100;

export async function benchPageTime(ctx: BenchContext): Promise<PageTimeResult> {
  const { payments, deliveries, warmups, samples } = ctx.options.pageTime;
  const emptyDir = mkdtempSync(path.join(ctx.tempRoot, "page-time-empty-"));
  const filledDir = mkdtempSync(path.join(ctx.tempRoot, "page-time-filled-"));
  const start = async (dataDir: string) =>
    startDashboard({
      root: ctx.options.root,
      distDir: ctx.distDir,
      port: await freePorts(...SERVER_PORTS),
      sandboxPort: ctx.sandbox.port,
      apiKey: ctx.apiKey,
      dataDir,
    });
  const signInAdmin = (dashboard: Dashboard) => signIn(dashboard.url, DEMO_ADMIN.email, DEMO_ADMIN.password, nextClientIp());
  const routes = builtPages(ctx.options.root, ctx.distDir);

  let params: PageParams;
  const first = await start(emptyDir);
  try {
    params = await samplePageParams(await signInAdmin(first));
  } finally {
    await first.stop();
  }
  // Both sides start with one page of rows, so both render the same markup and only the table sizes differ.
  await addBulkRows({ kind: "pglite", dataDir: emptyDir }, BASE_ROWS, BASE_ROWS);
  cpSync(emptyDir, filledDir, { recursive: true });
  ctx.log(`page time: adding ${payments} payments and ${deliveries} delivery-log rows to a copy of a fresh database…`);
  const rows = await addBulkRows({ kind: "pglite", dataDir: filledDir }, payments, deliveries, BASE_ROWS + 1);
  if (rows.paymentsAfter < payments + BASE_ROWS || rows.deliveriesAfter < deliveries + BASE_ROWS) {
    throw new Error(`the bulk insert left ${rows.paymentsAfter} payments and ${rows.deliveriesAfter} delivery-log rows`);
  }
  ctx.log(`page time: rows added in ${round(rows.ms / 1000)} s; timing both databases side by side`);

  const failed: PageProblem[] = [];
  const servers: Dashboard[] = [];
  let sides: [Side, Side];
  try {
    servers.push(await start(emptyDir), await start(filledDir));
    const [a, b] = await Promise.all(servers.map(signInAdmin));
    sides = [
      { admin: a as Session, samples: new Map() },
      { admin: b as Session, samples: new Map() },
    ];
    await timePages(ctx, sides, routes, params, failed);
  } finally {
    await Promise.all(servers.map((s) => s.stop()));
  }

  const pages: PageTimeRow[] = [];
  for (const route of routes) {
    const page = resolvePage(route, params);
    const before = sides[0].samples.get(route);
    const after = sides[1].samples.get(route);
    if (!page) failed.push({ route, reason: "no sample value for its parameter" });
    if (!page || !before?.length || !after?.length) continue;
    const empty = summary(before);
    const filled = summary(after);
    pages.push({ route, page, empty, filled, growth: round(filled.fullMs / empty.fullMs, 2) });
  }
  const worst = pages.reduce<PageTimeRow | null>((max, p) => (max === null || p.growth > max.growth ? p : max), null);
  if (!worst) throw new Error(`no page could be timed (${failed[0]?.route ?? ""}: ${failed[0]?.reason ?? "none built"})`);
  ctx.log(`page time: ${pages.length} pages; most growth ${worst.growth}× (${worst.page}: ${worst.empty.fullMs} → ${worst.filled.fullMs} ms)`);
  return { warmups, samples, rows, pages, failed, worst };
}
