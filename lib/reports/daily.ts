import "server-only";

// The day book (docs/architecture.md "Closing the books", docs/architecture.md "Closing the books"): per day in the time zone, the requests sent
// and answered, the payments received, the main wallet's first and last balance reading and the exceptions still open,
// each part one grouped read over an indexed range (created_at, decided_at, read_at, opened_at), so a year costs a
// few scans, not 366. Payments come from the kept hour totals (lib/payments/hour-totals.ts) when the days start on
// whole hours (Lagos does), so a year of payments costs a row per hour, not a row per payment.
import { sql } from "drizzle-orm";

import type { DayBook, DayEntry } from "@/lib/client/reports/daily";
import { addDays, endOfDay, startOfDay } from "@/lib/client/time/zone";
import { queryRows, type Db } from "@/lib/db/client";
import { closeFinishedHours, onWholeHours, settledBetweenSql, totalsByBucket, type BucketTotals } from "@/lib/payments/hour-totals";

interface RequestDay {
  d: number;
  sent: number;
  failed: number;
  asked: string;
}

interface DecidedDay {
  d: number;
  accepted: number;
  declined: number;
  accepted_amount: string;
}

interface BalanceDay {
  d: number;
  first: string;
  last: string;
  change: string;
  settled_between: string;
}

/** Kobo of a decimal naira string: sums stay exact. */
const kobo = (naira: string) => {
  const [whole = "0", cents = ""] = naira.replace("-", "").split(".");
  const k = BigInt(whole) * 100n + BigInt((cents + "00").slice(0, 2));
  return naira.startsWith("-") ? -k : k;
};
const naira = (k: bigint) => {
  const a = k < 0n ? -k : k;
  return `${k < 0n ? "-" : ""}${a / 100n}.${String(a % 100n).padStart(2, "0")}`;
};

/** Days one book reads at most: the route's limit (366), so the loop below is finite whatever it is handed. */
const MAX_BOOK_DAYS = 366;

/** Every day from `from` to `to` (both included, at most 366 apart: the route checks; more is refused here too). */
export async function readDayBook(db: Db, from: string, to: string, timeZone: string, now = new Date()): Promise<DayBook> {
  const dayCount = Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000) + 1;
  if (!(dayCount >= 1 && dayCount <= MAX_BOOK_DAYS)) throw new RangeError(`a day book of ${from}..${to} is not 1 to ${MAX_BOOK_DAYS} days`);
  const startAt = startOfDay(from, timeZone);
  const endAt = endOfDay(to, timeZone);
  const [start, end] = [startAt.toISOString(), endAt.toISOString()];
  // Each day's first instant in the time zone, computed once here: a row's day is its place among them (a binary
  // search per row, `width_bucket`), not a time zone conversion of every row. The index maps back to the date.
  const dates: string[] = [];
  // Counted, not compared as strings: past 9999 a date's string ("+010000-01-01") sorts before "9999-12-31".
  for (let i = 0; i < dayCount; i++) dates.push(addDays(from, i));
  const firstInstants = dates.map((d) => startOfDay(d, timeZone));
  const bounds = `{${firstInstants.map((t) => t.toISOString()).join(",")}}`;
  const day = (column: string) => sql`width_bucket(${sql.raw(column)}, ${bounds}::timestamptz[])`;
  // Days on whole hours (every zone with a whole-hour offset): the kept hours hold the payments' sums.
  const hourly = onWholeHours([...firstInstants, endAt]);
  if (hourly) await closeFinishedHours(db, now);
  const settledBetween = hourly
    ? settledBetweenSql(sql`b.first_at`, sql`b.last_at`, now)
    : sql`(select coalesce(sum(p.settled_amount), 0) from payments p where p.received_at > b.first_at and p.received_at <= b.last_at)`;
  const [created, decided, paid, notVerified, balances, exceptionDays] = await Promise.all([
    queryRows<RequestDay>(
      db,
      sql`select ${day("created_at")} as d,
            (count(*) filter (where status in ('pending', 'accepted', 'declined')))::int as sent,
            (count(*) filter (where status = 'failed'))::int as failed,
            coalesce(sum(amount) filter (where status in ('pending', 'accepted', 'declined')), 0)::numeric(20,2)::text as asked
          from fund_requests where created_at >= ${start}::timestamptz and created_at < ${end}::timestamptz group by 1`,
    ),
    queryRows<DecidedDay>(
      db,
      sql`select ${day("decided_at")} as d,
            (count(*) filter (where status = 'accepted'))::int as accepted,
            (count(*) filter (where status = 'declined'))::int as declined,
            coalesce(sum(amount) filter (where status = 'accepted'), 0)::numeric(20,2)::text as accepted_amount
          from fund_requests where decided_at >= ${start}::timestamptz and decided_at < ${end}::timestamptz group by 1`,
    ),
    hourly
      ? totalsByBucket(db, firstInstants, startAt, endAt, now)
      : queryRows<BucketTotals>(
          db,
          sql`select ${day("received_at")} as d, count(*)::int as count,
                sum(actual_amount)::numeric(20,2)::text as gross, sum(fees)::numeric(20,2)::text as fees,
                sum(settled_amount)::numeric(20,2)::text as settled
              from payments where received_at >= ${start}::timestamptz and received_at < ${end}::timestamptz group by 1`,
        ),
    // Verified = received less the few not (yet) verified, which the (verification, received_at) index finds.
    queryRows<{ d: number; n: number }>(
      db,
      sql`select ${day("received_at")} as d, count(*)::int as n from payments
          where verification in ('unverified', 'failed') and received_at >= ${start}::timestamptz and received_at < ${end}::timestamptz group by 1`,
    ),
    queryRows<BalanceDay>(
      db,
      sql`with days as (
            select ${day("read_at")} as d, min(read_at) as first_at, max(read_at) as last_at,
              (array_agg(main_minor order by read_at, id))[1] as first_minor, (array_agg(main_minor order by read_at desc, id desc))[1] as last_minor
            from balance_readings where read_at >= ${start}::timestamptz and read_at < ${end}::timestamptz group by 1
          )
          select b.d, round(b.first_minor / 100, 2)::text as first, round(b.last_minor / 100, 2)::text as last,
            round((b.last_minor - b.first_minor) / 100, 2)::text as change,
            ${settledBetween}::numeric(20,2)::text as settled_between
          from days b`,
    ),
    // Exceptions opened that day and still open: what the day leaves for a person (lib/exceptions).
    queryRows<{ d: number; open: number }>(
      db,
      sql`select ${day("opened_at")} as d, count(*)::int as open from exceptions
          where status = 'open' and opened_at >= ${start}::timestamptz and opened_at < ${end}::timestamptz group by 1`,
    ),
  ]);
  const byDay = <T extends { d: number }>(rows: T[]) => new Map(rows.map((r) => [dates[Number(r.d) - 1] ?? "", r]));
  const [c, dd, p, nv, b, x] = [byDay(created), byDay(decided), byDay(paid), byDay(notVerified), byDay(balances), byDay(exceptionDays)];
  const days: DayEntry[] = [];
  for (const date of dates) {
    const balance = b.get(date);
    days.push({
      date,
      requests: {
        sent: c.get(date)?.sent ?? 0,
        accepted: dd.get(date)?.accepted ?? 0,
        declined: dd.get(date)?.declined ?? 0,
        failed: c.get(date)?.failed ?? 0,
      },
      asked: c.get(date)?.asked ?? "0.00",
      acceptedAmount: dd.get(date)?.accepted_amount ?? "0.00",
      payments: {
        count: p.get(date)?.count ?? 0,
        gross: p.get(date)?.gross ?? "0.00",
        fees: p.get(date)?.fees ?? "0.00",
        settled: p.get(date)?.settled ?? "0.00",
        verified: (p.get(date)?.count ?? 0) - (nv.get(date)?.n ?? 0),
      },
      balance: balance ? { first: balance.first, last: balance.last, change: balance.change } : null,
      unexplained: balance ? naira(kobo(balance.change) - kobo(balance.settled_between)) : null,
      openExceptions: x.get(date)?.open ?? 0,
    });
  }
  const sum = (pick: (e: DayEntry) => string) => naira(days.reduce((t, e) => t + kobo(pick(e)), 0n));
  const count = (pick: (e: DayEntry) => number) => days.reduce((t, e) => t + pick(e), 0);
  const withBalance = days.filter((e) => e.balance !== null);
  const firstReading = withBalance[0]?.balance ?? null;
  const lastReading = withBalance[withBalance.length - 1]?.balance ?? null;
  const change = firstReading && lastReading ? naira(kobo(lastReading.last) - kobo(firstReading.first)) : null;
  return {
    from,
    to,
    days,
    total: {
      date: "total",
      requests: {
        sent: count((e) => e.requests.sent),
        accepted: count((e) => e.requests.accepted),
        declined: count((e) => e.requests.declined),
        failed: count((e) => e.requests.failed),
      },
      asked: sum((e) => e.asked),
      acceptedAmount: sum((e) => e.acceptedAmount),
      payments: {
        count: count((e) => e.payments.count),
        gross: sum((e) => e.payments.gross),
        fees: sum((e) => e.payments.fees),
        settled: sum((e) => e.payments.settled),
        verified: count((e) => e.payments.verified),
      },
      balance: firstReading && lastReading && change ? { first: firstReading.first, last: lastReading.last, change } : null,
      unexplained: withBalance.length === 0 ? null : sum((e) => e.unexplained ?? "0.00"),
    },
  };
}
