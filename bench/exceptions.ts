// Benchmark 13: the exceptions inbox (issue 25). Two embedded databases served side by side, as the payers'
// (bench/payers.ts): one with `baseExceptions` exceptions, one with `exceptions`; four in five open, the rest
// resolved. Times /exceptions, /api/exceptions (open, resolved, one kind) and the navigation's count on both,
// request by request in alternation. Target: the large side within 1.5× of the small one.
import { cpSync, mkdtempSync } from "node:fs";
import path from "node:path";
import { performance } from "node:perf_hooks";

import { sql } from "drizzle-orm";

import { DEMO_ADMIN } from "@/lib/auth/demo";
import { openDatabase, queryRows, type DbTarget } from "@/lib/db/client";
import { fakeAddress as nextClientIp } from "@/tests/support/sign-in";

import type { BenchContext } from "./context";
import { startDashboard, type Dashboard } from "./dashboard";
import { freePorts, SERVER_PORTS } from "./ports";
import { signIn, timeGet, type Session } from "./session";
import { median, round } from "./stats";

const PATHS = ["/exceptions", "/api/exceptions", "/api/exceptions?status=resolved", "/api/exceptions?kind=unlinked_payment", "/api/exceptions/count"] as const;

export interface ExceptionTiming {
  path: string;
  smallMs: number;
  largeMs: number;
  /** largeMs / smallMs. */
  growth: number;
}

export interface ExceptionsResult {
  smallExceptions: number;
  largeExceptions: number;
  seedMs: number;
  paths: ExceptionTiming[];
  worstGrowth: number;
}

const KINDS = ["unlinked_payment", "verification_failed", "amount_mismatch", "accepted_without_payment", "duplicate_payment"];

/** `count` exceptions of every kind over the last year, one in five resolved (as the scan and people leave them). */
async function addExceptions(target: DbTarget, count: number): Promise<number> {
  const database = await openDatabase(target, { migrate: false });
  try {
    await database.db.execute(sql`
      insert into exceptions (kind, subject, status, payment_uuid, tag, amount, detail, opened_at, resolved_by_name, resolved_at, note)
      select (${`{${KINDS.join(",")}}`}::text[])[1 + g % 5], 'bench-' || g, case when g % 5 = 0 then 'resolved' else 'open' end,
        'bench-' || g, 'bench.payer' || (g % 1000), (100 + g % 900)::numeric(18, 2), 'Bench exception ' || g, t,
        case when g % 5 = 0 then 'Bench Person' end, case when g % 5 = 0 then t + interval '1 hour' end, case when g % 5 = 0 then 'Settled' end
      from (select g, now() - make_interval(secs => g * 300) as t from generate_series(1, ${count}) as g) as s`);
    const [row] = await queryRows<{ n: number }>(database.db, sql`select count(*)::int as n from exceptions`);
    return row?.n ?? 0;
  } finally {
    await database.close();
  }
}

export async function benchExceptions(ctx: BenchContext): Promise<ExceptionsResult> {
  const { baseExceptions, exceptions, warmups, samples } = ctx.options.exceptions;
  const smallDir = mkdtempSync(path.join(ctx.tempRoot, "exceptions-small-"));
  const largeDir = mkdtempSync(path.join(ctx.tempRoot, "exceptions-large-"));
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
  ctx.log(`exceptions: ${baseExceptions} exceptions on one database, ${exceptions} on the other…`);
  const small = await addExceptions({ kind: "pglite", dataDir: smallDir }, baseExceptions);
  const large = await addExceptions({ kind: "pglite", dataDir: largeDir }, exceptions);
  const seedMs = Math.round(performance.now() - seeded);
  if (large < exceptions) throw new Error(`the large database has ${large} exceptions, not ${exceptions}`);
  ctx.log(`exceptions: rows in ${round(seedMs / 1000)} s; timing both side by side`);

  const servers: Dashboard[] = [];
  try {
    servers.push(await start(smallDir), await start(largeDir));
    const [smallSide, largeSide] = (await Promise.all(servers.map((s) => signIn(s.url, DEMO_ADMIN.email, DEMO_ADMIN.password, nextClientIp())))) as [
      Session,
      Session,
    ];
    const taken = new Map<string, { small: number[]; large: number[] }>();
    for (let pass = 0; pass < warmups + samples; pass++) {
      for (const p of PATHS) {
        const entry = taken.get(p) ?? { small: [], large: [] };
        // Which side goes first alternates from pass to pass, so the machine's other work falls on both alike.
        const order: ("small" | "large")[] = pass % 2 === 0 ? ["small", "large"] : ["large", "small"];
        for (const side of order) {
          const ms = await timeGet(side === "small" ? smallSide : largeSide, p);
          if (pass >= warmups) entry[side].push(ms);
        }
        taken.set(p, entry);
      }
    }
    const paths = PATHS.map((p) => {
      const t = taken.get(p) ?? { small: [0], large: [0] };
      const smallMs = median(t.small);
      const largeMs = median(t.large);
      return { path: p, smallMs, largeMs, growth: round(largeMs / smallMs, 2) };
    });
    const result: ExceptionsResult = { smallExceptions: small, largeExceptions: large, seedMs, paths, worstGrowth: Math.max(...paths.map((p) => p.growth)) };
    ctx.log(`exceptions: most growth ${result.worstGrowth}×`);
    return result;
  } finally {
    await Promise.all(servers.map((s) => s.stop()));
  }
}
