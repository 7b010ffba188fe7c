import "server-only";

import type { CheckRefused } from "@/lib/auth/own-account";
import { conflict, invalidField, tooManyRequests, type ApiError } from "@/lib/http/api-error";

// The answers of the /api/me routes that ask for the person's password (and code) again: lib/auth/own-account.ts
// decides, this file says it over HTTP.

/** Two-step sign-in is off (perhaps an admin reset it since the page was drawn). */
export function twoStepNotOn(): ApiError {
  return conflict("Two-step sign-in is not on (an admin may have reset it). Reload the page to set it up again.");
}

/** The answer to a refused password (and code) check: 429 when throttled, else 422 on `passwordField` or the code, or 409. */
export function checkRefusal({ check }: CheckRefused, passwordField: string): ApiError {
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
