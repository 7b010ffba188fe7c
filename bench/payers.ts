// Benchmark 10: the payers list and a busy payer (issue 23). Two embedded databases served side by side, as in the
// page-time benchmark (bench/page-time.ts): one with `basePayers` payers (2 payments each), one with `payers` payers
// and twice as many payments; each also holds one payer with `heavyRequests` requests. Times /payers and /api/payers
// (default order and by collected) on both, request by request in alternation, and the busy payer's page and route on
// the large one. Targets: the large side within 1.5× of the small one; the busy payer under 300 ms.
import { cpSync, mkdtempSync } from "node:fs";
import path from "node:path";
import { performance } from "node:perf_hooks";

import { sql } from "drizzle-orm";

import { DEMO_ADMIN } from "@/lib/auth/demo";
import { openDatabase, queryRows, type DbTarget } from "@/lib/db/client";
import { fakeAddress as nextClientIp } from "@/tests/support/sign-in";

import { addBulkRows } from "./bulk-rows";
import type { BenchContext } from "./context";
import { startDashboard, type Dashboard } from "./dashboard";
import { freePorts, SERVER_PORTS } from "./ports";
import { signIn, timeGet, type Session } from "./session";
import { median, round } from "./stats";

export const HEAVY_TAG = "bench.heavy";
const LIST_PATHS = ["/payers", "/api/payers", "/payers?sort=collected", "/api/payers?filter=paid&sort=collected"] as const;
const HEAVY_PATHS = [`/payers/${HEAVY_TAG}`, `/api/payers/${HEAVY_TAG}`] as const;

export interface PayerListTiming {
  path: string;
  smallMs: number;
  largeMs: number;
  /** largeMs / smallMs. */
  growth: number;
}

export interface PayersResult {
  smallPayers: number;
  largePayers: number;
  largePayments: number;
  heavyRequests: number;
  seedMs: number;
  lists: PayerListTiming[];
  /** The busy payer on the large side: median whole-response time of each path. */
  heavy: { path: string; ms: number }[];
  worstGrowth: number;
  heavyMaxMs: number;
}

/** `count` requests to the busy payer, every status, spread over a year (through the triggers, as any request). */
async function addHeavyPayer(target: DbTarget, count: number): Promise<void> {
  const database = await openDatabase(target, { migrate: false });
  try {
    await database.db.execute(sql`
      insert into fund_requests (reference, idempotency_key, request_id, tag, amount, description, status, decided_at, created_at, updated_at, last_checked_at)
      select 'fb_bench_heavy_' || g, 'client:bench-heavy-' || g, 'bh' || g, ${HEAVY_TAG}, (100 + g % 50)::numeric(18, 2), 'Bench dues ' || g,
        case when g % 4 = 0 then 'declined' when g % 4 = 1 then 'accepted' when g % 4 = 2 then 'failed' else 'pending' end,
        case when g % 4 < 2 then t + interval '90 seconds' end, t, t, now()
      from (select g, now() - make_interval(hours => g * 8) as t from generate_series(1, ${count}) as g) as s`);
  } finally {
    await database.close();
  }
}

async function payerCount(target: DbTarget): Promise<{ payers: number; payments: number }> {
  const database = await openDatabase(target, { migrate: false });
  try {
    const [row] = await queryRows<{ payers: number; payments: number }>(
      database.db,
      sql`select (select count(*) from payer_stats)::int as payers, (select count(*) from payments)::int as payments`,
    );
    return row ?? { payers: 0, payments: 0 };
  } finally {
    await database.close();
  }
}

export async function benchPayers(ctx: BenchContext): Promise<PayersResult> {
  const { basePayers, payers, heavyRequests, warmups, samples } = ctx.options.payers;
  const smallDir = mkdtempSync(path.join(ctx.tempRoot, "payers-small-"));
  const largeDir = mkdtempSync(path.join(ctx.tempRoot, "payers-large-"));
  const start = async (dataDir: string) =>
    startDashboard({
      root: ctx.options.root,
      distDir: ctx.distDir,
      port: await freePorts(...SERVER_PORTS),
      sandboxPort: ctx.sandbox.port,
      apiKey: ctx.apiKey,
      dataDir,
    });
  // A first start migrates the fresh folder; then both copies get their rows with the server stopped.
  await (await start(smallDir)).stop();
  cpSync(smallDir, largeDir, { recursive: true });
  const seeded = performance.now();
  ctx.log(`payers: ${basePayers} payers on one database, ${payers} on the other (two payments each), and a payer with ${heavyRequests} requests on both…`);
  await addBulkRows({ kind: "pglite", dataDir: smallDir }, basePayers * 2, 0, 1, basePayers);
  await addBulkRows({ kind: "pglite", dataDir: largeDir }, payers * 2, 0, 1, payers);
  for (const dir of [smallDir, largeDir]) await addHeavyPayer({ kind: "pglite", dataDir: dir }, heavyRequests);
  const seedMs = Math.round(performance.now() - seeded);
  const large = await payerCount({ kind: "pglite", dataDir: largeDir });
  if (large.payers < payers) throw new Error(`the large database has ${large.payers} payers, not ${payers}`);
  ctx.log(`payers: rows in ${round(seedMs / 1000)} s; timing both side by side`);

  const servers: Dashboard[] = [];
  try {
    servers.push(await start(smallDir), await start(largeDir));
    const [small, big] = (await Promise.all(servers.map((s) => signIn(s.url, DEMO_ADMIN.email, DEMO_ADMIN.password, nextClientIp())))) as [Session, Session];
    const taken = new Map<string, { small: number[]; large: number[] }>();
    for (let pass = 0; pass < warmups + samples; pass++) {
      for (const p of [...LIST_PATHS, ...HEAVY_PATHS]) {
        const entry = taken.get(p) ?? { small: [], large: [] };
        // Which side goes first alternates from pass to pass, so the machine's other work falls on both alike.
        const order: ("small" | "large")[] = pass % 2 === 0 ? ["small", "large"] : ["large", "small"];
        for (const side of order) {
          const ms = await timeGet(side === "small" ? small : big, p);
          if (pass >= warmups) entry[side].push(ms);
        }
        taken.set(p, entry);
      }
    }
    const lists = LIST_PATHS.map((p) => {
      const t = taken.get(p) ?? { small: [0], large: [0] };
      const smallMs = median(t.small);
      const largeMs = median(t.large);
      return { path: p, smallMs, largeMs, growth: round(largeMs / smallMs, 2) };
    });
    const heavy = HEAVY_PATHS.map((p) => ({ path: p, ms: median(taken.get(p)?.large ?? [0]) }));
    const result: PayersResult = {
      smallPayers: basePayers,
      largePayers: large.payers,
      largePayments: large.payments,
      heavyRequests,
      seedMs,
      lists,
      heavy,
      worstGrowth: Math.max(...lists.map((l) => l.growth)),
      heavyMaxMs: Math.max(...heavy.map((h) => h.ms)),
    };
    ctx.log(`payers: most growth ${result.worstGrowth}×; the busy payer at most ${result.heavyMaxMs} ms`);
    return result;
  } finally {
    await Promise.all(servers.map((s) => s.stop()));
  }
}
