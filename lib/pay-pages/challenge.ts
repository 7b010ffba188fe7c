import "server-only";

import { createChallenge, randomInt, verifySolution, type Challenge, type Solution } from "altcha-lib";
import { deriveKey } from "altcha-lib/algorithms/sha";
import { lt } from "drizzle-orm";

import { derivedKey } from "@/lib/auth/derived-key";
import { getConfig } from "@/lib/config";
import type { Db } from "@/lib/db/client";
import { payChallengesUsed } from "@/lib/db/schema";

// The pay pages' proof of work (docs/architecture.md "Pay pages"): ALTCHA v2 challenges signed with keys derived from
// AUTH_SECRET, valid 5 minutes, each spent once (the primary key of pay_challenges_used decides).

/** How long a challenge may be solved and sent. */
export const CHALLENGE_TTL_MS = 5 * 60_000;
// The counter a browser must find: 5,000–20,000 SHA-256 rounds, about a second on a phone, a cost a flood pays per try.
const COUNTER_MIN = 5_000;
const COUNTER_MAX = 20_000;

function secrets(): { hmacSignatureSecret: string; hmacKeySignatureSecret: string } {
  const secret = getConfig().authSecret;
  return {
    hmacSignatureSecret: derivedKey(secret, "pay-challenge-signature").toString("base64url"),
    hmacKeySignatureSecret: derivedKey(secret, "pay-challenge-key").toString("base64url"),
  };
}

/** A fresh challenge for a payer's browser. */
export async function newChallenge(now = Date.now()): Promise<Challenge> {
  return createChallenge({
    algorithm: "SHA-256",
    cost: 1,
    counter: randomInt(COUNTER_MIN, COUNTER_MAX),
    deriveKey,
    expiresAt: new Date(now + CHALLENGE_TTL_MS),
    ...secrets(),
  });
}

export type ChallengeCheck = { ok: true } | { ok: false; reason: "malformed" | "expired" | "invalid" | "replayed" };

interface Payload {
  challenge: Challenge;
  solution: Solution;
}

function decode(text: string): Payload | null {
  try {
    const value: unknown = JSON.parse(Buffer.from(text, "base64").toString("utf8"));
    if (typeof value !== "object" || value === null) return null;
    const { challenge, solution } = value as Partial<Payload>;
    if (typeof challenge?.signature !== "string" || typeof challenge.parameters !== "object" || challenge.parameters === null) return null;
    if (typeof solution?.counter !== "number" || typeof solution.derivedKey !== "string") return null;
    return { challenge, solution };
  } catch {
    return null;
  }
}

/**
 * Checks a solved challenge (base64 of `{ challenge, solution }`) and spends it: a second use of the same challenge is
 * `replayed`, whichever instance sees it.
 */
export async function spendChallenge(db: Db, text: string): Promise<ChallengeCheck> {
  const payload = decode(text);
  if (!payload) return { ok: false, reason: "malformed" };
  let result;
  try {
    result = await verifySolution({ challenge: payload.challenge, solution: payload.solution, deriveKey, ...secrets() });
  } catch {
    return { ok: false, reason: "malformed" };
  }
  if (result.expired) return { ok: false, reason: "expired" };
  if (!result.verified) return { ok: false, reason: "invalid" };
  const expiresAt = new Date((payload.challenge.parameters.expiresAt ?? 0) * 1000);
  const spent = await db
    .insert(payChallengesUsed)
    .values({ signature: payload.challenge.signature as string, expiresAt })
    .onConflictDoNothing()
    .returning({ signature: payChallengesUsed.signature });
  return spent.length === 1 ? { ok: true } : { ok: false, reason: "replayed" };
}

/** Forgets spent challenges once they have expired (they can no longer be replayed): the retention job's part. */
export async function purgeSpentChallenges(db: Db, now = new Date()): Promise<number> {
  const gone = await db.delete(payChallengesUsed).where(lt(payChallengesUsed.expiresAt, now)).returning({ signature: payChallengesUsed.signature });
  return gone.length;
}
