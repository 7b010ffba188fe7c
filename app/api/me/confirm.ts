import "server-only";

import { checkOwnPassword } from "@/lib/auth/confirm-password";
import { checkPasswordAndCode, type PasswordAndCodeCheck } from "@/lib/auth/confirm-two-step";
import type { Db } from "@/lib/db/client";
import type { StaffRow } from "@/lib/db/schema";
import { conflict, invalidField, tooManyRequests, type ApiError } from "@/lib/http/api-error";

// The answers of the /api/me routes that ask for the person's password (and code) again: lib/auth decides,
// this file says it over HTTP.

/** Two-step sign-in is off (perhaps an admin reset it since the page was drawn). */
export function twoStepNotOn(): ApiError {
  return conflict("Two-step sign-in is not on (an admin may have reset it). Reload the page to set it up again.");
}

function refusal(check: Exclude<PasswordAndCodeCheck, { ok: true }>, passwordField: string): ApiError {
  switch (check.reason) {
    case "throttled": {
      const m = check.retryAfterMinutes;
      return tooManyRequests(`Too many attempts. Try again in ${m} minute${m === 1 ? "" : "s"}.`, m * 60_000);
    }
    case "wrong_password":
      return invalidField("That is not your current password.", passwordField, "That is not your current password");
    case "not_on":
      return twoStepNotOn();
    case "unreadable":
      return conflict("Your two-step sign-in cannot be checked on this server (its secret key was changed). Ask an admin to reset it.");
    case "wrong_code":
      return invalidField("That code does not match or was already used.", "code", "That code does not match or was already used");
  }
}

/** The account, when `password` is the person's own; otherwise throws the answer (422 on `field`, or 429). */
export async function requireOwnPassword(db: Db, who: { id: string; email: string }, password: string, ip: string, field: string): Promise<StaffRow> {
  const check = await checkOwnPassword(db, who, password, ip);
  if (!check.ok) throw refusal(check, field);
  return check.row;
}

/** The account, when the password and a current code (or recovery code) are right; otherwise throws the answer. */
export async function requirePasswordAndCode(
  db: Db,
  who: { id: string; email: string },
  input: { password: string; code: string },
  ip: string,
): Promise<StaffRow> {
  const check = await checkPasswordAndCode(db, who, input, ip);
  if (!check.ok) throw refusal(check, "password");
  return check.row;
}
