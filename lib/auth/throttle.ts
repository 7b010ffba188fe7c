import "server-only";

import { and, count, eq, gt, lt, min } from "drizzle-orm";

import type { Db } from "@/lib/db/client";
import { signInAttempts } from "@/lib/db/schema";

export const MAX_FAILURES = 5;
export const WINDOW_MS = 15 * 60 * 1000;

export type ThrottleVerdict = { allowed: true } | { allowed: false; retryAfterMinutes: number };

/**
 * Refuses once an e-mail or an address has 5 failures in the last 15 minutes, until the oldest ages out.
 * `beforeId` counts only attempts claimed before that one (see beginAttempt).
 */
export async function checkThrottle(db: Db, email: string, ip: string, now = new Date(), beforeId?: number): Promise<ThrottleVerdict> {
  const since = new Date(now.getTime() - WINDOW_MS);
  const verdicts = await Promise.all(
    [eq(signInAttempts.email, email), eq(signInAttempts.ip, ip)].map(async (who) => {
      const [row] = await db
        .select({ failures: count(), oldest: min(signInAttempts.at) })
        .from(signInAttempts)
        .where(and(who, gt(signInAttempts.at, since), beforeId === undefined ? undefined : lt(signInAttempts.id, beforeId)));
      return row;
    }),
  );
  let wait = 0;
  for (const v of verdicts) {
    if (v && v.failures >= MAX_FAILURES && v.oldest) {
      wait = Math.max(wait, new Date(v.oldest).getTime() + WINDOW_MS - now.getTime());
    }
  }
  return wait > 0 ? { allowed: false, retryAfterMinutes: Math.max(1, Math.ceil(wait / 60_000)) } : { allowed: true };
}

/**
 * Claims an attempt before the password is checked, counted as a failure until cleared by a
 * success: parallel guesses each see the ones claimed before them, so no burst slips past the limit.
 */
export async function beginAttempt(db: Db, email: string, ip: string): Promise<ThrottleVerdict> {
  const [claimed] = await db.insert(signInAttempts).values({ email, ip }).returning({ id: signInAttempts.id });
  if (!claimed) throw new Error("sign-in attempt was not recorded");
  const verdict = await checkThrottle(db, email, ip, new Date(), claimed.id);
  if (verdict.allowed) return verdict;
  // A refused attempt is not a failure: it must not push the lock further out.
  await db.delete(signInAttempts).where(eq(signInAttempts.id, claimed.id));
  return verdict;
}

/** Drops rows that no longer count (old rows only matter for 15 minutes). */
export async function pruneAttempts(db: Db): Promise<void> {
  await db.delete(signInAttempts).where(lt(signInAttempts.at, new Date(Date.now() - 2 * WINDOW_MS)));
}

/**
 * A successful sign-in clears that e-mail's failures only: clearing the address too would let
 * anyone with an account wipe the guesses made at someone else's from the same address.
 */
export async function clearFailures(db: Db, email: string): Promise<void> {
  await db.delete(signInAttempts).where(eq(signInAttempts.email, email));
}
