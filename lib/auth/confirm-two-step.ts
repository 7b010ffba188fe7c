import "server-only";

import { getConfig } from "@/lib/config";
import type { Db } from "@/lib/db/client";

import { checkOwnPassword, type PasswordCheck } from "./confirm-password";
import { checkSecondStep, TwoStepUnreadable } from "./two-step";

export type PasswordAndCodeCheck = PasswordCheck | { ok: false; reason: "not_on" | "unreadable" | "wrong_code" };

/**
 * The person's password and a current code (or a recovery code), under the sign-in throttle: what turning
 * two-step sign-in off or renewing the recovery codes needs, so a stolen session alone can do neither.
 * HTTP answers: app/api/me/confirm.ts.
 */
export async function checkPasswordAndCode(
  db: Db,
  who: { id: string; email: string },
  input: { password: string; code: string },
  ip: string,
): Promise<PasswordAndCodeCheck> {
  const password = await checkOwnPassword(db, who, input.password, ip);
  if (!password.ok) return password;
  if (password.row.totpSecret === null) return { ok: false, reason: "not_on" };
  try {
    if (!(await checkSecondStep(db, password.row, input.code, getConfig().authSecret))) return { ok: false, reason: "wrong_code" };
  } catch (error) {
    if (error instanceof TwoStepUnreadable) return { ok: false, reason: "unreadable" };
    throw error;
  }
  return password;
}
