// Benchmark 1: signed webhook deliveries into the dashboard (`next start`) and into the bare node:http server.
import { mkdtempSync } from "node:fs";
import path from "node:path";

import type { DbTarget } from "@/lib/db/client";
import { launch, waitForHttp } from "@/tests/support/processes";

import type { BenchContext } from "./context";
import { cleanEnv, startDashboard } from "./dashboard";
import { paymentRowsByUuid } from "./db-rows";
import { prepareDeliveries, sendAll, type DeliveryOutcome } from "./deliveries";
import { freePorts, SERVER_PORTS } from "./ports";
import { round, summarize, type Summary } from "./stats";

export type IntakeServer = "dashboard" | "bare";
export type IntakeDatabase = { kind: "pglite" } | { kind: "postgres"; url: string };

export interface IntakeSide {
  server: IntakeServer;
  deliveries: number;
  uniqueUuids: number;
  repeats: number;
  concurrency: number;
  elapsedMs: number;
  perSecond: number;
  latencyMs: Summary;
  answered2xx: number;
  non2xx: number;
  unanswered: number;
  /** Uuids with no payment row afterwards (whether or not a delivery of it was answered 2xx). */
  lost: number;
  /** Payment rows beyond one per uuid. */
  duplicates: number;
  /** Throughput of every round, when the side is the best of several. */
  roundsPerSecond?: number[];
  /** The median round's throughput, beside the best one's `perSecond`. */
  medianPerSecond?: number;
}

export interface IntakeResult {
  database: "pglite" | "postgres";
  dashboard: IntakeSide;
  bare: IntakeSide;
  /** Dashboard throughput over the bare server's: best rounds, and median rounds. */
  ratio: number;
  medianRatio: number;
}

export interface RunningServer {
  webhookUrl: string;
  stop(): Promise<void>;
}

export async function startServer(ctx: BenchContext, server: IntakeServer, db: IntakeDatabase, dataDir: string): Promise<RunningServer> {
  const port = await freePorts(...SERVER_PORTS);
  const webhookUrl = `http://127.0.0.1:${port}/api/webhooks/peer-transfer`;
  const databaseUrl = db.kind === "postgres" ? db.url : undefined;
  if (server === "dashboard") {
    const dashboard = await startDashboard({
      root: ctx.options.root,
      distDir: ctx.distDir,
      port,
      sandboxPort: ctx.sandbox.port,
      apiKey: ctx.apiKey,
      dataDir,
      databaseUrl,
    });
    return { webhookUrl, stop: dashboard.stop };
  }
  const env: NodeJS.ProcessEnv = {
    ...cleanEnv(),
    NODE_ENV: "production",
    BARE_PORT: String(port),
    SERVICE_API_KEY: ctx.apiKey,
    DATA_DIR: dataDir,
    ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
  };
  const tsx = path.join(ctx.options.root, "node_modules", ".bin", "tsx");
  const proc = launch(`bare server :${port}`, tsx, ["--conditions=react-server", "bench/bare-server.ts"], { cwd: ctx.options.root, env });
  try {
    await waitForHttp(`http://127.0.0.1:${port}/health`, proc, 60_000);
  } catch (error) {
    await proc.stop();
    throw error;
  }
  return { webhookUrl, stop: () => proc.stop() };
}

function tally(
  server: IntakeServer,
  outcomes: DeliveryOutcome[],
  elapsedMs: number,
  rows: Map<string, number>,
  uniques: string[],
  concurrency: number,
): IntakeSide {
  const answered = outcomes.filter((o) => o.status !== 0);
  let lost = 0;
  let duplicates = 0;
  for (const uuid of uniques) {
    const n = rows.get(uuid.toLowerCase()) ?? 0;
    if (n === 0) lost += 1;
    if (n > 1) duplicates += n - 1;
  }
  return {
    server,
    deliveries: outcomes.length,
    uniqueUuids: uniques.length,
    repeats: outcomes.length - uniques.length,
    concurrency,
    elapsedMs: round(elapsedMs),
    perSecond: round((outcomes.length / elapsedMs) * 1000),
    latencyMs: summarize(answered.map((o) => o.ms)),
    answered2xx: outcomes.filter((o) => o.status >= 200 && o.status < 300).length,
    non2xx: answered.filter((o) => o.status < 200 || o.status >= 300).length,
    unanswered: outcomes.length - answered.length,
    lost,
    duplicates,
  };
}

async function runSide(ctx: BenchContext, server: IntakeServer, db: IntakeDatabase): Promise<IntakeSide> {
  const { deliveries, repeatShare, concurrency, warmup } = ctx.options.intake;
  const dataDir = mkdtempSync(path.join(ctx.tempRoot, `intake-${server}-`));
  const measured = prepareDeliveries(deliveries, repeatShare, ctx.apiKey);
  const running = await startServer(ctx, server, db, dataDir);
  let result: { outcomes: DeliveryOutcome[]; elapsedMs: number };
  try {
    // Loads the route's modules and fills the connection pools; not counted.
    await sendAll(running.webhookUrl, prepareDeliveries(warmup, 0, ctx.apiKey), Math.min(5, concurrency));
    result = await sendAll(running.webhookUrl, measured, concurrency);
  } finally {
    await running.stop();
  }
  const uniques = [...new Set(measured.map((d) => d.uuid))];
  const target: DbTarget = db.kind === "postgres" ? { kind: "postgres", url: db.url } : { kind: "pglite", dataDir };
  const rows = await paymentRowsByUuid(target, uniques);
  const side = tally(server, result.outcomes, result.elapsedMs, rows, uniques, concurrency);
  if (side.answered2xx === 0) throw new Error(`intake into the ${server} (${db.kind}): no delivery was accepted`);
  ctx.log(
    `intake ${db.kind} ${server}: ${side.perSecond}/s, p50 ${side.latencyMs.p50} ms, p99 ${side.latencyMs.p99} ms, lost ${side.lost}, duplicates ${side.duplicates}`,
  );
  return side;
}

/**
 * The best round of each side (this machine's throughput varies ±20% from run to run), with loss and
 * duplicates summed over every round so a fault in any round shows.
 */
function bestOf(rounds: IntakeSide[]): IntakeSide {
  const best = rounds.reduce((a, b) => (b.perSecond > a.perSecond ? b : a));
  return {
    ...best,
    lost: rounds.reduce((n, r) => n + r.lost, 0),
    duplicates: rounds.reduce((n, r) => n + r.duplicates, 0),
    roundsPerSecond: rounds.map((r) => r.perSecond),
    medianPerSecond: [...rounds.map((r) => r.perSecond)].sort((a, b) => a - b)[Math.floor(rounds.length / 2)] ?? best.perSecond,
  };
}

export async function benchIntake(ctx: BenchContext, db: IntakeDatabase): Promise<IntakeResult> {
  const sides: Record<IntakeServer, IntakeSide[]> = { bare: [], dashboard: [] };
  // Alternated, so a slow spell of the machine falls on both sides alike.
  for (let i = 0; i < ctx.options.intake.rounds; i++) {
    sides.bare.push(await runSide(ctx, "bare", db));
    sides.dashboard.push(await runSide(ctx, "dashboard", db));
  }
  const bare = bestOf(sides.bare);
  const dashboard = bestOf(sides.dashboard);
  return {
    database: db.kind,
    dashboard,
    bare,
    ratio: round(dashboard.perSecond / bare.perSecond, 3),
    medianRatio: round((dashboard.medianPerSecond ?? dashboard.perSecond) / (bare.medianPerSecond ?? bare.perSecond), 3),
  };
}
