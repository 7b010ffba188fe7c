import "server-only";

import type { Db } from "@/lib/db/client";
import type { StaffRow } from "@/lib/db/schema";
import { invalidField, tooManyRequests } from "@/lib/http/api-error";
import { findStaffById } from "@/lib/auth/accounts";

import { verifyPassword } from "./password";
import { beginAttempt, pruneAttempts } from "./throttle";

/**
 * Checks a signed-in person's own password under the sign-in throttle (the same 5 failures in 15 minutes
 * per e-mail and address): a stolen session cannot guess its way to a password change. The attempt stays
 * counted until the caller's whole action succeeds and calls clearFailures.
 */
export async function confirmOwnPassword(db: Db, who: { id: string; email: string }, password: string, ip: string, field: string): Promise<StaffRow> {
  const verdict = await beginAttempt(db, who.email, ip);
  if (!verdict.allowed) {
    const m = verdict.retryAfterMinutes;
    throw tooManyRequests(`Too many attempts. Try again in ${m} minute${m === 1 ? "" : "s"}.`, m * 60_000);
  }
  const row = await findStaffById(db, who.id);
  if (!row || !(await verifyPassword(row.passwordHash, password))) {
    await pruneAttempts(db);
    throw invalidField("That is not your current password.", field, "That is not your current password");
  }
  return row;
}
