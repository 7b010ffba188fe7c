import "server-only";

import { getConfig } from "@/lib/config";
import type { Db } from "@/lib/db/client";
import type { StaffRow } from "@/lib/db/schema";
import { conflict, invalidField } from "@/lib/http/api-error";

import { confirmOwnPassword } from "./confirm-password";
import { checkSecondStep, TwoStepUnreadable } from "./two-step";

/** Two-step sign-in is off (perhaps an admin reset it since the page was drawn). */
export function notOn() {
  return conflict("Two-step sign-in is not on (an admin may have reset it). Reload the page to set it up again.");
}

/**
 * The person's password and a current code (or a recovery code), under the sign-in throttle: what turning
 * two-step sign-in off or renewing the recovery codes needs, so a stolen session alone can do neither.
 */
export async function confirmPasswordAndCode(
  db: Db,
  who: { id: string; email: string },
  input: { password: string; code: string },
  ip: string,
): Promise<StaffRow> {
  const row = await confirmOwnPassword(db, who, input.password, ip, "password");
  if (row.totpSecret === null) throw notOn();
  const checked = await checkSecondStep(db, row, input.code, getConfig().authSecret).catch((error: unknown) => {
    if (error instanceof TwoStepUnreadable)
      throw conflict("Your two-step sign-in cannot be checked on this server (its secret key was changed). Ask an admin to reset it.");
    throw error;
  });
  if (!checked) throw invalidField("That code does not match or was already used.", "code", "That code does not match or was already used");
  return row;
}
