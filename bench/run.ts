// `npm run bench` (the issue's sizes) and `npm run bench:smoke` (tiny sizes, part of `npm test`): every benchmark in one
// run, a table on stdout, the JSON report, and on a full run the figures in bench/README.md. Exits non-zero when a measurement
// could not be taken; a missed target is reported, not fatal.
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { once } from "node:events";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";

import { DEMO_ADMIN } from "@/lib/auth/demo";
import { startSandbox } from "@/sandbox/server";
import { stillRunning, stopAll } from "@/tests/support/processes";
import { fakeAddress as nextClientIp } from "@/tests/support/sign-in";

import { benchAmplification } from "./amplification";
import { benchApi } from "./api";
import { benchPayPages } from "./pay-pages";
import { BENCH_DIST_DIR, BLANK_APP_DIR, buildBlank, buildDashboard, sharedBuild, SMOKE_DIST_DIR } from "./build";
import { benchCampaignLag } from "./campaign-lag";
import { benchPayers } from "./payers";
import { benchExceptions } from "./exceptions";
import { benchPlans } from "./plans";
import { benchDayBook } from "./day-book";
import { benchNotifications, benchOutbound } from "./consumers";
import { benchExports } from "./exports";
import { benchCampaigns } from "./campaigns";
import { benchNextFloor } from "./next-floor";
import type { BenchContext } from "./context";
import { startDashboard } from "./dashboard";
import { acquireLock } from "./dir-lock";
import { benchFollowUp } from "./follow-up";
import { benchIntake } from "./intake";
import { benchLiveLatency } from "./live-latency";
import { machineInfo } from "./machine";
import { readOptions, type BenchStep } from "./options";
import { benchPageTime } from "./page-time";
import { measureBlankPage, measureDashboardPages, pageWeightResult } from "./page-weight";
import { freePorts, SANDBOX_PORTS, SERVER_PORTS } from "./ports";
import { redactUrl, scratchDatabase } from "./postgres";
import { printTable, updateReadme, writeJson, type Report } from "./report";
import { benchScaleOut } from "./scale-out";
import { signIn } from "./session";
import { targetLines, type BenchResults } from "./targets";

const options = readOptions(process.argv.slice(2), process.env);
const log = (line: string) => console.log(`[bench ${new Date().toISOString().slice(11, 19)}] ${line}`);
const machine = machineInfo();
const started = performance.now();
const errors: string[] = [];
const results: BenchResults = {
  intake: [],
  amplification: null,
  liveLatency: null,
  pageWeight: null,
  followUp: null,
  scaleOut: null,
  pageTime: null,
  campaigns: null,
  lag: null,
  nextFloor: null,
  payers: null,
  plans: null,
  dayBook: null,
  exports: null,
  exceptions: null,
  notifications: null,
  outbound: null,
  api: null,
  payPages: null,
};
const wants = (step: BenchStep) => options.only === null || options.only.has(step);
/** SERVICE_RATE_LIMIT_PER_MIN of the dashboard that page weight, follow-up, live latency and amplification share. */
const ONE_DASHBOARD_BUDGET = 6_000;
const cleanups: (() => Promise<void> | void)[] = [];

async function cleanUp(): Promise<void> {
  await stopAll();
  for (const c of cleanups.splice(0).reverse()) await Promise.resolve(c()).catch((e: unknown) => log(`clean-up: ${String(e)}`));
}

for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.once(signal, () => {
    log(`${signal}: stopping everything`);
    void cleanUp().finally(() => process.exit(130));
  });
}

/** Runs one measurement; a failure is recorded (the run will fail) and the others still run. */
function failedViewerCalls(what: string, calls: { total: number; failed: number }): void {
  if (calls.failed > calls.total * 0.01) errors.push(`${what}: ${calls.failed} of ${calls.total} viewer calls failed (more than 1%)`);
}

async function step<T>(name: string, work: () => Promise<T>): Promise<T | null> {
  // Each step stops what it started; one left running would take the machine from the steps after it.
  const left = stillRunning();
  if (left.length > 0) log(`${name}: still running from before: ${left.join(", ")}`);
  try {
    return await work();
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    errors.push(`${name}: ${message.split("\n")[0]}`);
    log(`${name} FAILED: ${message}`);
    return null;
  } finally {
    // The bench's own process (the sandbox, receivers and clients live in it): late steps ran slower in full runs
    // than alone, so each step's end says what this process holds.
    const { rss, heapUsed } = process.memoryUsage();
    log(`${name}: the bench's own process: RSS ${Math.round(rss / 1048576)} MB, heap used ${Math.round(heapUsed / 1048576)} MB`);
  }
}

/**
 * Steps that drive their load from a bench process of their own, with its own sandbox, receivers and clients, when
 * the run has other steps: run last in one process, they were three to seven times slower than run alone on the same
 * code (bench/README.md, "Steps in a process of their own").
 */
const OWN_PROCESS: ReadonlySet<BenchStep> = new Set(["webhooks-out", "pay-pages"]);

/** Runs `bench/run.ts --only=<name>` as a child (its output passed through) and takes its results and errors. */
async function inOwnProcess<K extends keyof BenchResults>(name: BenchStep, key: K, tempRoot: string): Promise<BenchResults[K]> {
  const file = path.join(tempRoot, `${name}.json`);
  const args = [...process.execArgv, process.argv[1] ?? "bench/run.ts", `--only=${name}`, ...(options.smoke ? ["--smoke"] : [])];
  const child = spawn(process.execPath, args, { cwd: options.root, env: { ...process.env, BENCH_CHILD_RESULTS: file }, stdio: "inherit" });
  const [code] = (await once(child, "exit")) as [number | null];
  let report: Report;
  try {
    report = JSON.parse(readFileSync(file, "utf8")) as Report;
  } catch {
    throw new Error(`its own process ended (exit ${code}) without a report`);
  }
  errors.push(...report.errors);
  return report.results[key];
}

/** A step in this process, or in its own when it is in OWN_PROCESS and this run has others. */
function ownOrHere<K extends keyof BenchResults>(name: BenchStep, key: K, ctx: BenchContext, here: () => Promise<BenchResults[K]>) {
  const alone = options.child || (options.only !== null && options.only.size === 1);
  return !alone && OWN_PROCESS.has(name) ? inOwnProcess(name, key, ctx.tempRoot) : here();
}

async function blankPage(ctx: BenchContext) {
  const release = await acquireLock(path.join(options.root, BLANK_APP_DIR, ".next-build.lock"), 15 * 60_000, log);
  try {
    await buildBlank(options.root, log);
    return await measureBlankPage(ctx);
  } finally {
    release();
  }
}

async function measureOnOneDashboard(ctx: BenchContext): Promise<void> {
  const port = await freePorts(...SERVER_PORTS);
  const dashboard = await startDashboard({
    root: options.root,
    distDir: ctx.distDir,
    port,
    sandboxPort: ctx.sandbox.port,
    apiKey: ctx.apiKey,
    dataDir: mkdtempSync(path.join(ctx.tempRoot, "dashboard-")),
    // 90/min (the default) refuses live latency's 120 requests in a row; the sandbox has no limit, and amplification's < 100/min stays the gates' doing.
    env: { SERVICE_RATE_LIMIT_PER_MIN: String(ONE_DASHBOARD_BUDGET) },
  });
  try {
    const admin = await signIn(dashboard.url, DEMO_ADMIN.email, DEMO_ADMIN.password, nextClientIp());
    if (wants("page-weight")) {
      const pages = await step("page weight", () => measureDashboardPages(ctx, admin));
      const blank = await step("page weight (blank app)", () => blankPage(ctx));
      for (const f of pages?.failed ?? []) errors.push(`page weight ${f.route}: ${f.reason}`);
      // A page left out is a figure missing: the run fails rather than report a heaviest page it did not weigh.
      for (const f of pages?.skipped ?? []) errors.push(`page weight ${f.route}: skipped (${f.reason})`);
      if (pages && blank) results.pageWeight = await step("page weight", async () => pageWeightResult(pages, blank));
    }
    // Before the others, while the dashboard has nothing else to do.
    if (wants("follow-up")) results.followUp = await step("follow-up latency", () => benchFollowUp(ctx, admin));
    if (wants("live-latency")) results.liveLatency = await step("live latency", () => benchLiveLatency(ctx, admin));
    // Last: it leaves pending requests behind for the reconciler.
    if (wants("amplification")) results.amplification = await step("service call amplification", () => benchAmplification(ctx, admin, ONE_DASHBOARD_BUDGET));
    if (results.amplification) failedViewerCalls("amplification", results.amplification.viewerCalls);
  } finally {
    await dashboard.stop();
  }
}

async function main(): Promise<void> {
  log(`${options.smoke ? "smoke run (tiny sizes)" : "full run"} on ${machine.cpuCount} × ${machine.cpuModel}`);
  const tempRoot = mkdtempSync(path.join(os.tmpdir(), "fundboard-bench-"));
  cleanups.push(() => rmSync(tempRoot, { recursive: true, force: true }));
  const shared = options.smoke ? sharedBuild(options.root) : null;
  const distDir = shared ?? (options.smoke ? SMOKE_DIST_DIR : BENCH_DIST_DIR);
  // A child (OWN_PROCESS) serves from the build its parent holds the lock of.
  if (!options.child) cleanups.push(await acquireLock(path.join(options.root, `${distDir}.lock`), 20 * 60_000, log));

  const apiKey = `sk_sandbox_bench_${randomBytes(12).toString("hex")}`;
  const sandboxPort = await freePorts(...SANDBOX_PORTS, 3);
  const sandbox = await startSandbox({ port: sandboxPort, apiKey });
  cleanups.push(() => sandbox.close());
  const ctx: BenchContext = { options, distDir, apiKey, sandbox: { apiUrl: sandbox.apiUrl, port: sandboxPort }, tempRoot, log };

  if (shared) log(`dashboard: using ${shared}, \`npm run build\`'s build of these sources`);
  else if (!(await step("build", () => buildDashboard(options.root, distDir, log).then(() => true)))) return;

  if (wants("intake")) await intake(ctx);
  if ((["page-weight", "follow-up", "live-latency", "amplification"] as const).some(wants)) await step("dashboard", () => measureOnOneDashboard(ctx));
  // Its own two dashboards on the embedded database: a fresh one and a copy with the bulk rows.
  if (wants("page-time")) {
    results.pageTime = await step("page server time", () => benchPageTime(ctx));
    for (const f of results.pageTime?.failed ?? []) errors.push(`page server time ${f.route}: ${f.reason}`);
  }
  // Its own sandbox and instances on a scratch Postgres database (skipped without DATABASE_URL).
  if (wants("scale-out")) results.scaleOut = await step("scale-out", () => benchScaleOut(ctx));
  // Viewers' calls that fail make a call count mean less: more than 1% fails the run.
  for (const r of results.scaleOut?.rounds ?? []) failedViewerCalls(`scale-out, ${r.instances} instance(s) at ${r.budgetPerMin}/min`, r.viewerCalls);
  // Its own dashboard (SERVICE_RATE_LIMIT_PER_MIN set) and its own sandbox, so the call counts are the campaign's alone.
  if (wants("campaigns")) results.campaigns = await step("campaigns", () => benchCampaigns(ctx));
  // Its own dashboard at the default budget and its own sandbox: the lag a deployment as shipped shows.
  if (wants("lag")) results.lag = await step("campaign lag", () => benchCampaignLag(ctx));
  // Its own two dashboards on the embedded database: 100 payers against 100,000.
  if (wants("payers")) results.payers = await step("payers", () => benchPayers(ctx));
  // Its own dashboard on the embedded database: a plan of 1,000 members and 12 periods.
  if (wants("plans")) results.plans = await step("plans", () => benchPlans(ctx));
  // Its own dashboard on the embedded database: a year of 100,000 payments and requests.
  if (wants("day-book")) results.dayBook = await step("day book", () => benchDayBook(ctx));
  // Its own two dashboards on the embedded database: 100 exceptions against 100,000.
  if (wants("exceptions")) results.exceptions = await step("exceptions", () => benchExceptions(ctx));
  // Its own dashboard on the embedded database: a year's Xero export asked for by six people at once.
  if (wants("exports")) results.exports = await step("exports", () => benchExports(ctx));
  // Its own dashboards on the embedded database, each with its own receivers in this process.
  if (wants("notifications")) results.notifications = await step("notifications", () => benchNotifications(ctx));
  if (wants("webhooks-out")) results.outbound = await step("webhooks out", () => ownOrHere("webhooks-out", "outbound", ctx, () => benchOutbound(ctx)));
  // Its own dashboard on the embedded database: the same work through an API key and through a session.
  if (wants("api")) results.api = await step("api", () => benchApi(ctx));
  if (wants("pay-pages")) results.payPages = await step("pay pages", () => ownOrHere("pay-pages", "payPages", ctx, () => benchPayPages(ctx)));
}

async function intake(ctx: BenchContext): Promise<void> {
  // The framework's own floor first: an empty route handler in the blank Next.js app against the bare /health.
  results.nextFloor = await step("Next.js floor", async () => {
    const release = await acquireLock(path.join(options.root, BLANK_APP_DIR, ".next-build.lock"), 15 * 60_000, log);
    try {
      await buildBlank(options.root, log);
    } finally {
      release();
    }
    return benchNextFloor(ctx);
  });
  const pglite = await step("intake (PGlite)", () => benchIntake(ctx, { kind: "pglite" }));
  if (pglite) results.intake.push(pglite);
  if (options.postgresUrl) {
    const serverUrl = options.postgresUrl;
    log(`intake on Postgres at ${redactUrl(serverUrl)}`);
    const scratch = await step("Postgres scratch database", () => scratchDatabase(serverUrl, log));
    if (scratch) {
      const pg = await step("intake (Postgres)", () => benchIntake(ctx, { kind: "postgres", url: scratch.url }));
      if (pg) results.intake.push(pg);
      await scratch.drop();
    }
  }
}

try {
  await main();
} catch (error) {
  errors.push(error instanceof Error ? error.message : String(error));
  log(`FAILED: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
} finally {
  await cleanUp();
}

const targets = targetLines(results);
const report: Report = {
  kind: options.smoke ? "smoke" : "full",
  machine,
  sizes: {
    intake: options.intake,
    amplification: options.amplification,
    live: options.live,
    followUp: options.followUp,
    scaleOut: options.scaleOut,
    pageTime: options.pageTime,
    campaigns: options.campaigns,
    lag: options.lag,
    payers: options.payers,
    plans: options.plans,
    dayBook: options.dayBook,
    exceptions: options.exceptions,
    exports: options.exports,
    notifications: options.notifications,
    outbound: options.outbound,
    api: options.api,
    payPages: options.payPages,
  },
  durationSeconds: Math.round((performance.now() - started) / 1000),
  results,
  targets,
  errors,
};
// A child's figures are its parent's to print.
if (!options.child) printTable(targets);
writeJson(options.resultsFile, report);
log(`wrote ${path.relative(options.root, options.resultsFile)}`);
if (options.updateReadme && errors.length === 0)
  log((await updateReadme(options.root, report)) ? "updated the figures in bench/README.md" : "bench/README.md: no bench markers found; not updated");

const missed = targets.filter((t) => t.verdict === "missed");
// A skipped scale-out (no DATABASE_URL) is a result too: it says why.
const others = {
  amplification: "amplification",
  liveLatency: "live-latency",
  pageWeight: "page-weight",
  followUp: "follow-up",
  scaleOut: "scale-out",
  pageTime: "page-time",
  campaigns: "campaigns",
  lag: "lag",
  payers: "payers",
  plans: "plans",
  dayBook: "day-book",
  exceptions: "exceptions",
  exports: "exports",
  notifications: "notifications",
  outbound: "webhooks-out",
  api: "api",
  payPages: "pay-pages",
  nextFloor: "intake",
} as const;
const expected = (wants("intake") ? 1 + (options.postgresUrl ? 1 : 0) : 0) + Object.values(others).filter(wants).length;
const taken = results.intake.length + Object.keys(others).filter((k) => results[k as keyof typeof others] !== null).length;
if (errors.length === 0 && taken < expected) errors.push(`only ${taken} of ${expected} measurements were taken`);
const skipped = results.scaleOut?.skipped ? ` (scale-out skipped: ${results.scaleOut.skipped})` : "";
console.log(
  `\n${taken} measurements${skipped}, ${targets.length - missed.length - targets.filter((t) => t.verdict === "info").length} targets met, ${missed.length} missed${missed.length ? ` (${missed.map((m) => m.metric).join("; ")})` : ""}.`,
);
if (errors.length) {
  console.error(`\nBenchmark FAILED: ${errors.length} measurement(s) could not be taken:\n${errors.map((e) => `  - ${e}`).join("\n")}`);
  process.exit(1);
}
process.exit(0);
