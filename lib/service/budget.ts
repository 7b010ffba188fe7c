import "server-only";

import { sql, type SQL } from "drizzle-orm";

import type { Db } from "@/lib/db/client";

/**
 * One service budget for the API host, shared by every instance through the database (docs/architecture.md
 * "The service budget"). A call is a row in service_calls of its class; the rows of the last 60 s are what is
 * spent, counted and added under one transaction-scoped advisory lock, so two instances can never both take the
 * last slot. Classes, most important first:
 * - send: a person creating a fund request; may use the whole limit.
 * - api: calls made for an API key (the business's own systems); only while the window leaves the send reserve,
 *   at most half the limit.
 * - read: a person reading a status or the balances; only while the window leaves the send reserve.
 * - background: jobs; the same, at most two thirds of the limit.
 * - public: a pay page's calls (made by a job); the same, at most a sixth of the limit.
 * Reads, background and public calls also take at most a third of the room of everything but sends in any 10 s
 * (api calls count in that slice but are never refused by it: api comes before read), so a storm cannot spend
 * the whole minute at once: what they take frees up steadily and a person sending every 5 s keeps finding room
 * (a sixth was tried and starved ordinary page loads; see docs/decisions.md).
 * Within background, a call may be asked to leave a `hold` of slots free for more important background work
 * (new campaign sends leave room for the status checks that are owed: docs/architecture.md "Pace and retry policies").
 */
// The order is the importance; service_calls.kind holds these (drizzle/0030_i41_budget_classes.sql).
export type BudgetClass = "send" | "api" | "read" | "background" | "public";

export type BudgetVerdict = { ok: true } | { ok: false; retryAfterMs: number };

/** Background slots a call must leave free for more important background work: in the 60 s window and in the 10 s slice. */
export interface BudgetHold {
  window: number;
  slice: number;
}

export const NO_HOLD: BudgetHold = { window: 0, slice: 0 };

const WINDOW_SECONDS = 60;
const SLICE_SECONDS = 10;
// A burst may take this share of the room of reads and background in one slice: three slices fill the minute.
const SLICE_SHARE = 3;
// Any constant shared by every instance: the lock that serialises spending.
const LOCK_KEY = 0x66_62_75_64; // "fbud"

/** Calls a minute kept for sends alone: max(5, 10 %), leaving at least one for everything else. */
export function sendReserve(limitPerMinute: number): number {
  return Math.min(Math.max(5, Math.ceil(limitPerMinute / 10)), limitPerMinute - 1);
}

/** The most background calls a window may hold: two thirds of the limit (and never into the send reserve). */
export function backgroundShare(limitPerMinute: number): number {
  return Math.min(Math.floor((limitPerMinute * 2) / 3), limitPerMinute - sendReserve(limitPerMinute));
}

/**
 * The most `api` calls a window may hold: half the limit, never into the send reserve, at least one
 * (15 at a limit of 30, 45 at 90). A key posting as fast as it can leaves people's reads the rest.
 */
export function apiShare(limitPerMinute: number): number {
  return Math.max(1, Math.min(Math.floor(limitPerMinute / 2), limitPerMinute - sendReserve(limitPerMinute)));
}

/** The most `public` calls (pay pages) a window may hold: a sixth of the limit, never into the send reserve, at least one (5 at 30, 15 at 90). */
export function publicShare(limitPerMinute: number): number {
  return Math.max(1, Math.min(Math.floor(limitPerMinute / 6), limitPerMinute - sendReserve(limitPerMinute)));
}

/**
 * The status checks of pending requests a minute (the reconciler's pace): half the background share, at most 30
 * (30 at a limit of 90, 10 at 30). While checks are owed, new sends leave them this room (docs/architecture.md "Pace and retry policies").
 */
export function checksShare(limitPerMinute: number): number {
  return Math.max(1, Math.min(30, Math.floor(backgroundShare(limitPerMinute) / 2)));
}

/** Campaign rows a minute while every request sent is still to answer: the background share less the checks' room. */
export function sendsShareWhileChecking(limitPerMinute: number): number {
  return Math.max(1, backgroundShare(limitPerMinute) - checksShare(limitPerMinute));
}

/**
 * The most calls other than sends in any 10 s before a read, background or public call is refused: a third of
 * their room (27 at a limit of 90). Api calls count here but are not refused by it.
 */
export function othersPerSlice(limitPerMinute: number): number {
  return Math.ceil((limitPerMinute - sendReserve(limitPerMinute)) / SLICE_SHARE);
}

/** The most background calls in any 10 s: a third of its share (20 at 90), so a running campaign never takes a whole slice from people's reads. */
export function backgroundPerSlice(limitPerMinute: number): number {
  return Math.max(1, Math.min(othersPerSlice(limitPerMinute) - 1, Math.ceil(backgroundShare(limitPerMinute) / SLICE_SHARE)));
}

interface Spent {
  total: number;
  api: number;
  background: number;
  public: number;
  recent_others: number;
  recent_background: number;
}

// The classes the 10 s slice refuses; sends never, api never (it comes before reads, so reads' use of the slice
// must not hold it back), though api calls count in it so a key's burst is paced against reads, not beside them.
const SLICED: ReadonlySet<BudgetClass> = new Set<BudgetClass>(["read", "background", "public"]);

/**
 * Spends one call of `budgetClass` if the last 60 s leave it room; otherwise says when they will. A background
 * call with a `hold` is admitted only while that many background slots stay free after it.
 */
export async function spendServiceCall(db: Db, budgetClass: BudgetClass, limitPerMinute: number, hold: BudgetHold = NO_HOLD): Promise<BudgetVerdict> {
  return db.transaction(async (tx) => {
    const q = tx as unknown as Db;
    await q.execute(sql`select pg_advisory_xact_lock(${LOCK_KEY})`);
    const result = (await q.execute(sql`
      select
        count(*)::int as total,
        count(*) filter (where kind = 'api')::int as api,
        count(*) filter (where kind = 'background')::int as background,
        count(*) filter (where kind = 'public')::int as public,
        count(*) filter (where kind <> 'send' and at > now() - make_interval(secs => ${SLICE_SECONDS}))::int as recent_others,
        count(*) filter (where kind = 'background' and at > now() - make_interval(secs => ${SLICE_SECONDS}))::int as recent_background
      from service_calls
      where at > now() - make_interval(secs => ${WINDOW_SECONDS})`)) as unknown as { rows: Spent[] };
    const spent = result.rows[0] ?? { total: 0, api: 0, background: 0, public: 0, recent_others: 0, recent_background: 0 };

    // Each rule that says no: the calls that must leave its window first (filter, window, how many).
    const waits: [SQL, number, number][] = [];
    const totalRoom = budgetClass === "send" ? limitPerMinute : limitPerMinute - sendReserve(limitPerMinute);
    if (spent.total >= totalRoom) waits.push([sql`true`, WINDOW_SECONDS, spent.total - totalRoom + 1]);
    if (SLICED.has(budgetClass) && spent.recent_others >= othersPerSlice(limitPerMinute))
      waits.push([sql`kind <> 'send'`, SLICE_SECONDS, spent.recent_others - othersPerSlice(limitPerMinute) + 1]);
    if (budgetClass === "background") {
      // A hold never closes background to the caller altogether: one slot of each stays its own.
      const share = backgroundShare(limitPerMinute) - clamp(hold.window, backgroundShare(limitPerMinute) - 1);
      const perSlice = backgroundPerSlice(limitPerMinute) - clamp(hold.slice, backgroundPerSlice(limitPerMinute) - 1);
      if (spent.background >= share) waits.push([sql`kind = 'background'`, WINDOW_SECONDS, Math.max(1, spent.background - share + 1)]);
      if (spent.recent_background >= perSlice) waits.push([sql`kind = 'background'`, SLICE_SECONDS, Math.max(1, spent.recent_background - perSlice + 1)]);
    }
    if (budgetClass === "api" && spent.api >= apiShare(limitPerMinute))
      waits.push([sql`kind = 'api'`, WINDOW_SECONDS, spent.api - apiShare(limitPerMinute) + 1]);
    if (budgetClass === "public" && spent.public >= publicShare(limitPerMinute))
      waits.push([sql`kind = 'public'`, WINDOW_SECONDS, spent.public - publicShare(limitPerMinute) + 1]);

    if (waits.length > 0) {
      let wait = 0;
      for (const [filter, seconds, leaving] of waits) wait = Math.max(wait, await untilLeft(q, filter, seconds, leaving));
      return { ok: false, retryAfterMs: Math.max(250, Math.ceil(wait)) };
    }
    await q.execute(sql`insert into service_calls (kind) values (${budgetClass})`);
    // Rows past the window only slow the count down: drop them as we go (bounded by the index).
    await q.execute(sql`delete from service_calls where at < now() - make_interval(secs => ${WINDOW_SECONDS * 2})`);
    return { ok: true };
  });
}

function clamp(n: number, max: number): number {
  return Math.max(0, Math.min(Math.floor(n), max));
}

/** Milliseconds until the `leaving`-th oldest call matching `filter` is out of its `seconds` window. */
async function untilLeft(q: Db, filter: SQL, seconds: number, leaving: number): Promise<number> {
  const result = (await q.execute(sql`
    select extract(epoch from (at + make_interval(secs => ${seconds}) - now())) * 1000 as ms
    from service_calls
    where at > now() - make_interval(secs => ${seconds}) and ${filter}
    order by at offset ${leaving - 1} limit 1`)) as unknown as { rows: { ms: number | string }[] };
  return Number(result.rows[0]?.ms ?? 0);
}

/** Calls of each class in the last 60 s, for /api/health and tests. */
export async function budgetSpent(db: Db): Promise<Record<BudgetClass, number>> {
  const result = (await db.execute(sql`
    select count(*) filter (where kind = 'send')::int as send, count(*) filter (where kind = 'api')::int as api,
      count(*) filter (where kind = 'read')::int as read, count(*) filter (where kind = 'background')::int as background,
      count(*) filter (where kind = 'public')::int as public
    from service_calls where at > now() - make_interval(secs => ${WINDOW_SECONDS})`)) as unknown as { rows: Record<BudgetClass, number>[] };
  return result.rows[0] ?? { send: 0, api: 0, read: 0, background: 0, public: 0 };
}
