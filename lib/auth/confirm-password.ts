import "server-only";

import type { Db } from "@/lib/db/client";
import type { StaffRow } from "@/lib/db/schema";
import { findStaffById } from "@/lib/auth/accounts";

import { verifyPassword } from "./password";
import { beginAttempt, pruneAttempts } from "./throttle";

export type PasswordCheck =
  { ok: true; row: StaffRow } | { ok: false; reason: "throttled"; retryAfterMinutes: number } | { ok: false; reason: "wrong_password" };

/**
 * Checks a signed-in person's own password under the sign-in throttle (lib/auth/throttle.ts: the same limits per
 * account and address): a stolen session cannot guess its way to a password change. The attempt stays
 * counted until the caller's whole action succeeds and calls clearFailures. HTTP answers: app/api/me/confirm.ts.
 */
export async function checkOwnPassword(db: Db, who: { id: string; email: string }, password: string, ip: string): Promise<PasswordCheck> {
  const verdict = await beginAttempt(db, who.email, ip);
  if (!verdict.allowed) return { ok: false, reason: "throttled", retryAfterMinutes: verdict.retryAfterMinutes };
  const row = await findStaffById(db, who.id);
  if (!row || !(await verifyPassword(row.passwordHash, password))) {
    await pruneAttempts(db);
    return { ok: false, reason: "wrong_password" };
  }
  return { ok: true, row };
}
