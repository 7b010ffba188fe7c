import "server-only";

import { sql } from "drizzle-orm";

import type { Db } from "@/lib/db/client";

/**
 * One service budget for the API host, shared by every instance through the database (see
 * docs/architecture.md, "The service budget"). A call is a row in service_calls; the rows of the
 * last 60 s are what is spent, counted and added under one transaction-scoped advisory lock, so two
 * instances can never both take the last slot. Interactive calls may use the whole limit;
 * background calls (the reconciler, campaign sends) at most two thirds of it.
 */
export type CallKind = "interactive" | "background";

export type BudgetVerdict = { ok: true } | { ok: false; retryAfterMs: number };

const WINDOW_SECONDS = 60;
// Any constant shared by every instance: the lock that serialises spending.
const LOCK_KEY = 0x66_62_75_64; // "fbud"

/** The most background calls a window may hold: about two thirds, so a person at the form always has room. */
export function backgroundShare(limitPerMinute: number): number {
  return Math.floor((limitPerMinute * 2) / 3);
}

/** Spends one call of `kind` if the last 60 s leave room; otherwise says when a slot frees up. */
export async function spendServiceCall(db: Db, kind: CallKind, limitPerMinute: number): Promise<BudgetVerdict> {
  return db.transaction(async (tx) => {
    const q = tx as unknown as Db;
    await q.execute(sql`select pg_advisory_xact_lock(${LOCK_KEY})`);
    const rows = (await q.execute(sql`
      select
        count(*)::int as total,
        count(*) filter (where kind = 'background')::int as background,
        coalesce(extract(epoch from (min(at) + make_interval(secs => ${WINDOW_SECONDS}) - now())) * 1000, 0)::float8 as oldest_ms,
        coalesce(extract(epoch from (min(at) filter (where kind = 'background') + make_interval(secs => ${WINDOW_SECONDS}) - now())) * 1000, 0)::float8 as oldest_background_ms
      from service_calls
      where at > now() - make_interval(secs => ${WINDOW_SECONDS})`)) as unknown as {
      rows: { total: number; background: number; oldest_ms: number; oldest_background_ms: number }[];
    };
    const spent = rows.rows[0] ?? { total: 0, background: 0, oldest_ms: 0, oldest_background_ms: 0 };
    const full = spent.total >= limitPerMinute;
    const backgroundFull = kind === "background" && spent.background >= backgroundShare(limitPerMinute);
    if (full || backgroundFull) {
      const wait = Math.max(full ? spent.oldest_ms : 0, backgroundFull ? spent.oldest_background_ms : 0);
      return { ok: false, retryAfterMs: Math.max(250, Math.ceil(Number(wait))) };
    }
    await q.execute(sql`insert into service_calls (kind) values (${kind})`);
    // Rows past the window only slow the count down: drop them as we go (bounded by the index).
    await q.execute(sql`delete from service_calls where at < now() - make_interval(secs => ${WINDOW_SECONDS * 2})`);
    return { ok: true };
  });
}

/** Calls of each kind in the last 60 s, for /api/health and the campaign page's pace. */
export async function budgetSpent(db: Db): Promise<{ interactive: number; background: number }> {
  const result = (await db.execute(sql`
    select count(*) filter (where kind = 'interactive')::int as interactive, count(*) filter (where kind = 'background')::int as background
    from service_calls where at > now() - make_interval(secs => ${WINDOW_SECONDS})`)) as unknown as { rows: { interactive: number; background: number }[] };
  return result.rows[0] ?? { interactive: 0, background: 0 };
}
