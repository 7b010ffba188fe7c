import "server-only";

import { and, gte, lt, sql, type SQL } from "drizzle-orm";

import { queryRows, type Db } from "@/lib/db/client";
import { paymentHourTotals, payments } from "@/lib/db/schema";
import { koboToNaira, nairaToKobo } from "@/lib/client/money";
import { addDays, dayOf, startOfDay } from "@/lib/client/time/zone";

// Totals that cost the same at any number of payments (docs/architecture.md, "Payments page"): a payment's
// received_at is its insert time and never changes, so an hour that is over has fixed sums. Each such hour is
// summed once into payment_hour_totals (an hour with no payments gets a zero row, so the latest row is the
// watermark); totals and the chart add those rows to a live sum over the hour not yet closed.

const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;
// An hour counts as over this long after it ends: no transaction that stamped received_at in it is still open.
const SETTLE_MS = 10 * 60_000;

export interface TimeRange {
  /** First instant included (a whole UTC day's start); none: from the first payment. */
  from?: Date;
  /** First instant excluded (a whole UTC day's start); none: up to now. */
  to?: Date;
}

export interface Totals {
  count: number;
  amount: string;
  fees: string;
  settled: string;
}

// A closed range: without statistics (the embedded database has no autovacuum) the planner reads an open-ended
// range on received_at as a third of the table and scans it all; bounded, it takes the index.
const notYet = (now: Date) => new Date(now.getTime() + DAY_MS);
const floorTo = (t: Date, ms: number) => new Date(Math.floor(t.getTime() / ms) * ms);
const earlier = (a: Date, b: Date) => (a < b ? a : b);
const later = (a: Date, b: Date) => (a > b ? a : b);

/** The start of the first hour not yet over: payments from here on are summed live. */
export function openFrom(now: Date): Date {
  return floorTo(new Date(now.getTime() - SETTLE_MS), HOUR_MS);
}

/** Sums every finished hour not yet in the table: one range scan of the new hours, nothing once caught up. */
export async function closeFinishedHours(db: Db, now = new Date()): Promise<void> {
  const open = openFrom(now);
  const [last] = await db.select({ hour: sql<string | null>`max(${paymentHourTotals.hour})::text` }).from(paymentHourTotals);
  let start: Date;
  if (last?.hour) {
    start = new Date(new Date(last.hour).getTime() + HOUR_MS);
  } else {
    const [first] = await db.select({ at: sql<string | null>`min(${payments.receivedAt})::text` }).from(payments);
    if (!first?.at) return;
    start = floorTo(new Date(first.at), HOUR_MS);
  }
  if (start >= open) return;
  // Another instance closing the same hours at once inserts nothing twice (the hour is the key).
  await db.execute(sql`
    insert into payment_hour_totals (hour, count, amount, fees, settled, gross)
    select h, count(p.uuid)::int, coalesce(sum(p.amount), 0), coalesce(sum(p.fees), 0), coalesce(sum(p.settled_amount), 0), coalesce(sum(p.actual_amount), 0)
    from generate_series(${start.toISOString()}::timestamptz, ${new Date(open.getTime() - HOUR_MS).toISOString()}::timestamptz, interval '1 hour') as h
    left join payments p on p.received_at >= h and p.received_at < h + interval '1 hour'
    group by h
    on conflict (hour) do nothing`);
}

/** Exact totals of the payments received in `range`, from the kept hours plus a live sum of the open one. */
export async function totalsInRange(db: Db, range: TimeRange, now = new Date()): Promise<Totals> {
  await closeFinishedHours(db, now);
  const open = openFrom(now);
  const keptTo = range.to ? earlier(range.to, open) : open;
  const liveFrom = range.from ? later(range.from, open) : open;
  const [[kept], [live]] = await Promise.all([
    db
      .select({
        n: sql<number>`coalesce(sum(${paymentHourTotals.count}), 0)::int`,
        amount: sql<string>`coalesce(sum(${paymentHourTotals.amount}), 0)::numeric(20,2)::text`,
        fees: sql<string>`coalesce(sum(${paymentHourTotals.fees}), 0)::numeric(20,2)::text`,
        settled: sql<string>`coalesce(sum(${paymentHourTotals.settled}), 0)::numeric(20,2)::text`,
      })
      .from(paymentHourTotals)
      .where(and(range.from ? gte(paymentHourTotals.hour, range.from) : undefined, lt(paymentHourTotals.hour, keptTo))),
    db
      .select({
        n: sql<number>`count(*)::int`,
        amount: sql<string>`coalesce(sum(${payments.amount}), 0)::numeric(20,2)::text`,
        fees: sql<string>`coalesce(sum(${payments.fees}), 0)::numeric(20,2)::text`,
        settled: sql<string>`coalesce(sum(${payments.settledAmount}), 0)::numeric(20,2)::text`,
      })
      .from(payments)
      .where(and(gte(payments.receivedAt, liveFrom), lt(payments.receivedAt, range.to ?? notYet(now)))),
  ]);
  return {
    count: Number(kept?.n ?? 0) + Number(live?.n ?? 0),
    amount: addNaira(kept?.amount, live?.amount),
    fees: addNaira(kept?.fees, live?.fees),
    settled: addNaira(kept?.settled, live?.settled),
  };
}

/** Two decimal naira strings added exactly, in kobo (never as floats). */
function addNaira(a = "0", b = "0"): string {
  const [x, y] = [nairaToKobo(a), nairaToKobo(b)];
  if (x === null || y === null) throw new Error("a payment total is not a two-decimal amount");
  return koboToNaira(x + y);
}

/**
 * Settled amount per day in `timeZone` over the `days` days ending today there, as decimal strings by "YYYY-MM-DD".
 * Kept rows are whole UTC hours, each counted on the day its start falls on (exact for whole-hour offsets like Lagos).
 */
export async function settledByDay(db: Db, days: number, timeZone: string, now = new Date()): Promise<Map<string, string>> {
  await closeFinishedHours(db, now);
  const start = startOfDay(addDays(dayOf(now, timeZone), -(days - 1)), timeZone);
  const open = openFrom(now);
  const [kept, live] = await Promise.all([
    db
      .select({ hour: paymentHourTotals.hour, settled: sql<string>`${paymentHourTotals.settled}::numeric(20,2)::text` })
      .from(paymentHourTotals)
      .where(and(gte(paymentHourTotals.hour, start), lt(paymentHourTotals.hour, open))),
    db
      .select({
        ms: sql<number>`(extract(epoch from date_trunc('hour', ${payments.receivedAt})) * 1000)::float8`,
        settled: sql<string>`sum(${payments.settledAmount})::numeric(20,2)::text`,
      })
      .from(payments)
      .where(and(gte(payments.receivedAt, later(open, start)), lt(payments.receivedAt, notYet(now))))
      .groupBy(sql`1`),
  ]);
  const byDay = new Map<string, string>();
  const add = (at: Date, settled: string) => {
    const day = dayOf(at, timeZone);
    byDay.set(day, addNaira(byDay.get(day), settled));
  };
  for (const r of kept) add(r.hour, r.settled);
  for (const r of live) add(new Date(Number(r.ms)), r.settled);
  return byDay;
}

export interface BucketTotals {
  /** The bucket: `width_bucket(t, bounds)`, 1 for the first bound's span. */
  d: number;
  count: number;
  gross: string;
  fees: string;
  settled: string;
}

/** True when every instant is a whole UTC hour: then kept hours fall wholly in one of the spans they bound. */
export const onWholeHours = (instants: Date[]) => instants.every((t) => t.getTime() % HOUR_MS === 0);

/**
 * The payments received in [from, to) summed per span between consecutive `bounds` (whole UTC hours, the first
 * being `from`; see onWholeHours): finished hours from the kept rows, the open hour live. The day book's payments
 * (lib/reports/daily.ts) cost a row per hour this way, not a row per payment.
 */
export async function totalsByBucket(db: Db, bounds: Date[], from: Date, to: Date, now = new Date()): Promise<BucketTotals[]> {
  await closeFinishedHours(db, now);
  const open = openFrom(now);
  const edges = `{${bounds.map((b) => b.toISOString()).join(",")}}`;
  const keptTo = earlier(to, open);
  const liveFrom = later(from, open);
  const [kept, live] = await Promise.all([
    from < keptTo
      ? queryRows<BucketTotals>(
          db,
          sql`select width_bucket(hour, ${edges}::timestamptz[]) as d, sum(count)::int as count,
                sum(gross)::numeric(20,2)::text as gross, sum(fees)::numeric(20,2)::text as fees, sum(settled)::numeric(20,2)::text as settled
              from payment_hour_totals where hour >= ${from.toISOString()}::timestamptz and hour < ${keptTo.toISOString()}::timestamptz group by 1`,
        )
      : [],
    liveFrom < to
      ? queryRows<BucketTotals>(
          db,
          sql`select width_bucket(received_at, ${edges}::timestamptz[]) as d, count(*)::int as count,
                sum(actual_amount)::numeric(20,2)::text as gross, sum(fees)::numeric(20,2)::text as fees, sum(settled_amount)::numeric(20,2)::text as settled
              from payments where received_at >= ${liveFrom.toISOString()}::timestamptz and received_at < ${to.toISOString()}::timestamptz group by 1`,
        )
      : [],
  ]);
  const byBucket = new Map<number, BucketTotals>();
  for (const row of [...kept, ...live]) {
    const d = Number(row.d);
    const seen = byBucket.get(d);
    byBucket.set(
      d,
      seen
        ? {
            d,
            count: seen.count + Number(row.count),
            gross: addNaira(seen.gross, row.gross),
            fees: addNaira(seen.fees, row.fees),
            settled: addNaira(seen.settled, row.settled),
          }
        : { d, count: Number(row.count), gross: row.gross, fees: row.fees, settled: row.settled },
    );
  }
  return [...byBucket.values()];
}

/**
 * The settled amount of the payments received in (first, last], as one SQL expression over two columns of the
 * caller's row: kept hours wholly inside, payments row by row only in the two part-hours at the edges. Call
 * closeFinishedHours with the same `now` first (the kept hours must be there).
 */
export function settledBetweenSql(first: SQL, last: SQL, now: Date): SQL {
  const open = openFrom(now).toISOString();
  // Whole UTC hours by epoch arithmetic: date_trunc would follow the session's time zone.
  const hourAfterFirst = sql`to_timestamp(floor(extract(epoch from ${first}) / 3600) * 3600 + 3600)`;
  const keptEnd = sql`least(to_timestamp(floor(extract(epoch from ${last}) / 3600) * 3600), ${open}::timestamptz)`;
  return sql`(
    coalesce((select sum(h.settled) from payment_hour_totals h where h.hour >= ${hourAfterFirst} and h.hour < ${keptEnd}), 0)
    + coalesce((select sum(p.settled_amount) from payments p
        where p.received_at > ${first} and p.received_at <= ${last} and p.received_at < ${hourAfterFirst}), 0)
    + coalesce((select sum(p.settled_amount) from payments p
        where p.received_at > ${first} and p.received_at <= ${last} and p.received_at >= greatest(${hourAfterFirst}, ${keptEnd})), 0))`;
}

/**
 * A payment written into, or taken out of, an hour that may already be summed (a hand record dated at its request's
 * acceptance, or that record replaced by its late notice): the kept row moves by the payment's sums in the caller's
 * transaction; an hour not yet summed will count it when it is.
 */
export async function adjustKeptHour(
  tx: Db,
  p: { receivedAt: Date; amount: string; fees: string; settledAmount: string; actualAmount: string },
  sign: 1 | -1,
): Promise<void> {
  const hour = floorTo(p.receivedAt, HOUR_MS).toISOString();
  await tx.execute(sql`
    update payment_hour_totals set count = count + ${sign}, amount = amount + ${sign} * ${p.amount}::numeric,
      fees = fees + ${sign} * ${p.fees}::numeric, settled = settled + ${sign} * ${p.settledAmount}::numeric,
      gross = gross + ${sign} * ${p.actualAmount}::numeric
    where hour = ${hour}::timestamptz`);
}
