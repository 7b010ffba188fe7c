import "server-only";

import { and, count, eq, gt, lt, min } from "drizzle-orm";

import type { Db } from "@/lib/db/client";
import { signInAttempts } from "@/lib/db/schema";

/** Failures of one account from one address: a person mistyping, or one guesser. */
export const MAX_FAILURES = 5;
/** Failures of one account from every address: guessing spread over many addresses. */
export const MAX_ACCOUNT_FAILURES = 10;
/** Failures from one address over every account: far higher, so one person behind an office's shared address never locks the office out. */
export const MAX_ADDRESS_FAILURES = 50;
export const WINDOW_MS = 15 * 60 * 1000;

export type ThrottleVerdict = { allowed: true } | { allowed: false; retryAfterMinutes: number };

/**
 * Refuses while, in the last 15 minutes, this account from this address has 5 failures, this account from anywhere
 * 10, or this address over every account 50, until the oldest counted ages out (docs/decisions.md, "Sign-in
 * throttle"). `beforeId` counts only attempts claimed before that one (see beginAttempt).
 */
export async function checkThrottle(db: Db, email: string, ip: string, now = new Date(), beforeId?: number): Promise<ThrottleVerdict> {
  const since = new Date(now.getTime() - WINDOW_MS);
  const limits = [
    { who: and(eq(signInAttempts.email, email), eq(signInAttempts.ip, ip)), max: MAX_FAILURES },
    { who: eq(signInAttempts.email, email), max: MAX_ACCOUNT_FAILURES },
    { who: eq(signInAttempts.ip, ip), max: MAX_ADDRESS_FAILURES },
  ];
  const verdicts = await Promise.all(
    limits.map(async ({ who, max }) => {
      const [row] = await db
        .select({ failures: count(), oldest: min(signInAttempts.at) })
        .from(signInAttempts)
        .where(and(who, gt(signInAttempts.at, since), beforeId === undefined ? undefined : lt(signInAttempts.id, beforeId)));
      return { row, max };
    }),
  );
  let wait = 0;
  for (const { row, max } of verdicts) {
    if (row && row.failures >= max && row.oldest) {
      wait = Math.max(wait, new Date(row.oldest).getTime() + WINDOW_MS - now.getTime());
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
