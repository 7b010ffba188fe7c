import "server-only";

import { and, eq, isNotNull, isNull, lt, or, sql } from "drizzle-orm";

import { getDb } from "@/lib/db";
import type { Db } from "@/lib/db/client";
import { balanceCache } from "@/lib/db/schema";
import { announce } from "@/lib/live/notify";
import { safeErrorSummary } from "@/lib/log/safe-error";
import { getService } from "@/lib/service/app-client";
import type { ServiceClient } from "@/lib/service/client";
import { ServiceError } from "@/lib/service/errors";
import { createGroupCommit } from "@/lib/util/group-commit";

import { recordBalanceReading } from "./readings";
import { toBalanceView, type BalanceView } from "./view";
import { processSingleton } from "@/lib/util/process-singleton";

// Any number of viewers on any number of instances cause at most one service call per TTL: the value
// and the lease of the instance reading it live in the database (docs/architecture.md; docs/architecture.md).
export const BALANCE_TTL_MS = 5_000;
// The refresh button skips the cache only for a value older than this, so no viewer can spend the
// service's rate limit by clicking: at most one call per 5 s for the deployment, as for plain reads.
export const MIN_REFRESH_AGE_MS = 5_000;
// How long an instance may hold the right to read the balance before another may take it over.
const LEASE_MS = 15_000;
// How long a reader waits for another instance's read before answering with the older value.
const WAIT_FOR_OTHER_MS = 12_000;
const ROW = 1;

function local(): { inFlight: Promise<BalanceView> | null } {
  return processSingleton<{ inFlight: Promise<BalanceView> | null }>("balance-cache", () => ({ inFlight: null }));
}

interface Stored {
  value: BalanceView | null;
  fetchedAt: Date | null;
}

async function stored(db: Db): Promise<Stored> {
  const [row] = await db.select({ value: balanceCache.value, fetchedAt: balanceCache.fetchedAt }).from(balanceCache).where(eq(balanceCache.id, ROW));
  return { value: (row?.value as BalanceView | null | undefined) ?? null, fetchedAt: row?.fetchedAt ?? null };
}

/**
 * The wallet balances, from the shared cache when fresh; concurrent misses share one service call. `service` is
 * the client a call this reader makes goes through (the people's by default; the API's routes pass
 * `getApiService()` so a key's read spends from the `api` class: docs/architecture.md "The service budget"). A
 * reader who joins a look already under way, or finds the value fresh, spends nothing whatever its client.
 */
export function getBalanceView(opts: { fresh?: boolean; service?: ServiceClient } = {}): Promise<BalanceView> {
  const l = local();
  // Readers in this process join one look at the shared cache rather than each asking the database.
  if (l.inFlight) return l.inFlight;
  const call = read(opts.fresh ?? false, opts.service).finally(() => {
    if (l.inFlight === call) l.inFlight = null;
  });
  l.inFlight = call;
  return call;
}

async function read(fresh: boolean, service: ServiceClient | undefined): Promise<BalanceView> {
  const db = await getDb();
  const maxAge = fresh ? MIN_REFRESH_AGE_MS : BALANCE_TTL_MS;
  const current = await stored(db);
  if (current.value && current.fetchedAt && Date.now() - current.fetchedAt.getTime() < maxAge) return current.value;

  await db.insert(balanceCache).values({ id: ROW }).onConflictDoNothing({ target: balanceCache.id });
  const leaseUntil = new Date(Date.now() + LEASE_MS);
  // The lease goes only to a reader that still sees a stale value: one that read before another
  // instance's refresh landed must not start a second call.
  const staleBefore = new Date(Date.now() - maxAge);
  const [won] = await db
    .update(balanceCache)
    .set({ refreshingUntil: leaseUntil })
    .where(
      and(
        eq(balanceCache.id, ROW),
        or(isNull(balanceCache.refreshingUntil), lt(balanceCache.refreshingUntil, sql`now()`)),
        or(isNull(balanceCache.fetchedAt), lt(balanceCache.fetchedAt, staleBefore)),
      ),
    )
    .returning({ id: balanceCache.id });
  if (won) return refresh(db, leaseUntil, current.value, service ?? getService());
  const now = await stored(db);
  if (now.value && now.fetchedAt && Date.now() - now.fetchedAt.getTime() < maxAge) return now.value;
  return waitForOther(db, current, service);
}

/** This instance holds the lease: one service call, stored for every instance unless invalidated meanwhile. */
async function refresh(db: Db, leaseUntil: Date, lastKnown: BalanceView | null, service: ServiceClient): Promise<BalanceView> {
  const started = new Date();
  try {
    const readAt = new Date();
    const view = toBalanceView(await service.getBalance(), readAt);
    // An invalidation during the call cleared the lease: the value is answered but not kept as fresh.
    await db
      .update(balanceCache)
      .set({ value: view, fetchedAt: started, refreshingUntil: null })
      .where(and(eq(balanceCache.id, ROW), eq(balanceCache.refreshingUntil, leaseUntil)));
    // The day book's reading (docs/architecture.md, "Closing the books"): a failure to keep it never fails the read.
    await recordBalanceReading(db, view, readAt).catch((e: unknown) => console.error(`[balance] reading not kept: ${safeErrorSummary(e)}`));
    return view;
  } catch (error) {
    await db
      .update(balanceCache)
      .set({ refreshingUntil: null })
      .where(and(eq(balanceCache.id, ROW), eq(balanceCache.refreshingUntil, leaseUntil)))
      .catch((e: unknown) => console.error(`[balance] could not release the lease: ${safeErrorSummary(e)}`));
    // The deployment's service budget is spent this minute: the last known balance, with its own time, beats an error.
    if (lastKnown && error instanceof ServiceError && error.budgetRefused) return lastKnown;
    throw error;
  }
}

/** Another instance is reading: wait for its value (bounded), else answer with what is stored. */
async function waitForOther(db: Db, before: Stored, service: ServiceClient | undefined): Promise<BalanceView> {
  const deadline = Date.now() + WAIT_FOR_OTHER_MS;
  let pause = 50;
  while (Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, pause));
    pause = Math.min(pause * 2, 400);
    const now = await stored(db);
    if (now.value && now.fetchedAt && now.fetchedAt.getTime() !== before.fetchedAt?.getTime()) return now.value;
    const [lease] = await db.select({ until: balanceCache.refreshingUntil }).from(balanceCache).where(eq(balanceCache.id, ROW));
    // The other read ended without a value (it failed, or an invalidation cleared it): read ourselves.
    if (!lease?.until) return read(false, service);
  }
  if (before.value) return before.value;
  return read(false, service);
}

/** Forgets the shared value (a payment changed the balance): every instance's next read asks the service, and browsers are told at its commit. */
export async function invalidateBalance(): Promise<void> {
  // A reader arriving now must not join a call that began before the change.
  local().inFlight = null;
  // A burst of payments drops the value with one update, not one each; each caller waits for an update begun after it.
  const drops = processSingleton("balance-drops", () =>
    createGroupCommit<null>(async () => {
      const db = await getDb();
      await db.transaction(async (tx) => {
        await tx
          .update(balanceCache)
          .set({ fetchedAt: null, refreshingUntil: null })
          .where(and(eq(balanceCache.id, ROW), or(isNotNull(balanceCache.fetchedAt), isNotNull(balanceCache.refreshingUntil))));
        await announce(tx, { type: "balance.changed" });
      });
    }),
  );
  await drops.add(null);
}
