// Benchmark 12: the day book (issue 25). One dashboard on a fresh embedded database holding a year of business:
// `payments` payments and as many fund requests spread over the last 365 days, and two balance readings a day (made
// in the database with the server stopped, as in benchmark 8). Then `GET /api/reports/daily` for the whole year, and
// its CSV, are timed (warm-ups, then samples, medians). Target: the year's day book well under a second (< 1 s).
import { mkdtempSync } from "node:fs";
import path from "node:path";
import { performance } from "node:perf_hooks";

import { sql } from "drizzle-orm";

import { DEMO_ADMIN } from "@/lib/auth/demo";
import { addDays, dayOf } from "@/lib/client/time/zone";
import { openDatabase } from "@/lib/db/client";
import { fakeAddress as nextClientIp } from "@/tests/support/sign-in";

import { addBulkRows, YEAR_SECONDS } from "./bulk-rows";
import type { BenchContext } from "./context";
import { startDashboard } from "./dashboard";
import { freePorts, SERVER_PORTS } from "./ports";
import { signIn, timeGet } from "./session";
import { median, round } from "./stats";

export interface DayBookResult {
  payments: number;
  requests: number;
  days: number;
  seedMs: number;
  /** Median whole-response times of the year's day book, as JSON and as CSV. */
  yearMs: number;
  yearCsvMs: number;
}

/** `count` fund requests over the last year (every status) and two balance readings a day. */
async function addRequestsAndReadings(dataDir: string, count: number): Promise<void> {
  const database = await openDatabase({ kind: "pglite", dataDir }, { migrate: false });
  try {
    const step = YEAR_SECONDS / Math.max(1, count);
    await database.db.execute(sql`
      insert into fund_requests (reference, idempotency_key, request_id, tag, amount, description, status, decided_at, created_at, updated_at, last_checked_at)
      select 'fb_bench_book_' || g, 'client:bench-book-' || g, 'bb' || g, 'bench.cust' || (g % 2000), (100 + g % 9000)::numeric(18, 2), 'Bench dues ' || g,
        case when g % 4 = 0 then 'declined' when g % 4 = 1 then 'accepted' when g % 4 = 2 then 'failed' else 'pending' end,
        case when g % 4 < 2 then t + interval '20 minutes' end, t, t, now()
      from (select g, now() - interval '65 minutes' - make_interval(secs => g * ${step}::float8) as t from generate_series(1, ${count}) as g) as s`);
    await database.db.execute(sql`
      insert into balance_readings (read_at, main_minor)
      select t, (100000000 + g * 12345)::numeric from (
        select g, now() - make_interval(hours => g * 12) as t from generate_series(1, 730) as g) as s`);
  } finally {
    await database.close();
  }
}

export async function benchDayBook(ctx: BenchContext): Promise<DayBookResult> {
  const { payments, warmups, samples } = ctx.options.dayBook;
  const dataDir = mkdtempSync(path.join(ctx.tempRoot, "day-book-"));
  const start = async () =>
    startDashboard({
      root: ctx.options.root,
      distDir: ctx.distDir,
      port: await freePorts(...SERVER_PORTS),
      sandboxPort: ctx.sandbox.port,
      apiKey: ctx.apiKey,
      dataDir,
    });
  // A first start migrates the fresh folder; the rows go in with the server stopped.
  await (await start()).stop();
  const seeded = performance.now();
  await addBulkRows({ kind: "pglite", dataDir }, payments, 0, 1, 2_000, YEAR_SECONDS);
  await addRequestsAndReadings(dataDir, payments);
  const seedMs = Math.round(performance.now() - seeded);
  ctx.log(`day book: ${payments} payments and ${payments} requests over a year in ${round(seedMs / 1000)} s`);
  const server = await start();
  try {
    const admin = await signIn(server.url, DEMO_ADMIN.email, DEMO_ADMIN.password, nextClientIp());
    const today = dayOf(new Date(), "Africa/Lagos");
    const from = addDays(today, -365);
    const year = `/api/reports/daily?from=${from}&to=${today}`;
    const paths = [year, `${year}&format=csv`];
    const taken = new Map<string, number[]>();
    for (let pass = 0; pass < warmups + samples; pass++) {
      for (const p of paths) {
        const ms = await timeGet(admin, p);
        if (pass >= warmups) taken.set(p, [...(taken.get(p) ?? []), ms]);
      }
    }
    const result: DayBookResult = {
      payments,
      requests: payments,
      days: 366,
      seedMs,
      yearMs: median(taken.get(year) ?? [0]),
      yearCsvMs: median(taken.get(`${year}&format=csv`) ?? [0]),
    };
    ctx.log(`day book: a year in ${result.yearMs} ms (CSV ${result.yearCsvMs} ms)`);
    return result;
  } finally {
    await server.stop();
  }
}
