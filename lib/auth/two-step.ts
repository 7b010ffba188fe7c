import "server-only";

import { and, count, eq, isNotNull, isNull, lt, or } from "drizzle-orm";

import type { Db } from "@/lib/db/client";
import { recoveryCodes, staff, type StaffRow } from "@/lib/db/schema";

import { qrSvg } from "./qr-svg";
import { hashRecoveryCode, looksLikeTotpCode, newRecoveryCodes, normaliseRecoveryCode } from "./recovery-codes";
import { openSecret, sealSecret } from "./secret-box";
import { matchTotpStep, newTotpSecret, totpUri } from "./totp";

// Two-step sign-in (docs/architecture.md, "Staff accounts"): TOTP secrets sealed at rest, a code good once
// (the account's last accepted step only moves forward), recovery codes single-use by their update's condition.

/** The sealed secret does not open: AUTH_SECRET changed since it was sealed (README, Configuration). */
export class TwoStepUnreadable extends Error {
  constructor() {
    super("the two-step secret could not be decrypted with this AUTH_SECRET");
    this.name = "TwoStepUnreadable";
  }
}

function unseal(sealed: string, authSecret: string): string {
  try {
    return openSecret(sealed, authSecret);
  } catch {
    throw new TwoStepUnreadable();
  }
}

export interface TwoStepSetup {
  secret: string;
  otpauthUrl: string;
  qrSvg: string;
}

/** A new secret waiting for its first code; null when two-step sign-in is already on (turn it off first). */
export async function beginTwoStepSetup(db: Db, who: Pick<StaffRow, "id" | "email">, authSecret: string): Promise<TwoStepSetup | null> {
  const secret = newTotpSecret();
  const updated = await db
    .update(staff)
    .set({ totpPendingSecret: sealSecret(secret, authSecret) })
    .where(and(eq(staff.id, who.id), isNull(staff.totpSecret)))
    .returning({ id: staff.id });
  if (updated.length === 0) return null;
  const otpauthUrl = totpUri(secret, who.email);
  return { secret, otpauthUrl, qrSvg: await qrSvg(otpauthUrl) };
}

export type EnableOutcome = { ok: true; recoveryCodes: string[] } | { ok: false; reason: "no_setup" | "already_on" | "wrong_code" };

/** Turns two-step sign-in on with the first code from the app; answers the recovery codes, shown this once. */
export async function enableTwoStep(db: Db, staffId: string, code: string, authSecret: string, now = Date.now()): Promise<EnableOutcome> {
  const [row] = await db.select({ pending: staff.totpPendingSecret, on: staff.totpSecret }).from(staff).where(eq(staff.id, staffId)).limit(1);
  if (!row) return { ok: false, reason: "no_setup" };
  if (row.on !== null) return { ok: false, reason: "already_on" };
  if (row.pending === null) return { ok: false, reason: "no_setup" };
  const step = matchTotpStep(unseal(row.pending, authSecret), code, now);
  if (step === null) return { ok: false, reason: "wrong_code" };
  const codes = newRecoveryCodes();
  const done = await db.transaction(async (tx) => {
    // The pending secret that was checked is the one turned on: a set-up started meanwhile elsewhere loses.
    const updated = await tx
      .update(staff)
      .set({ totpSecret: row.pending, totpPendingSecret: null, totpEnabledAt: new Date(now), totpLastStep: step, updatedAt: new Date(now) })
      .where(and(eq(staff.id, staffId), isNull(staff.totpSecret), eq(staff.totpPendingSecret, row.pending as string)))
      .returning({ id: staff.id });
    if (updated.length === 0) return false;
    await tx.delete(recoveryCodes).where(eq(recoveryCodes.staffId, staffId));
    await tx.insert(recoveryCodes).values(codes.map((c) => ({ staffId, codeHash: hashRecoveryCode(normaliseRecoveryCode(c) ?? c, authSecret) })));
    return true;
  });
  return done ? { ok: true, recoveryCodes: codes } : { ok: false, reason: "already_on" };
}

export type SecondStep = "totp" | "recovery_code";

/**
 * Checks a code from the app (6 digits) or a recovery code for an account with two-step sign-in on.
 * Each is good once: the step must be later than the last accepted one, and a recovery code is marked used
 * by the same statement that finds it unused.
 */
export async function checkSecondStep(
  db: Db,
  row: Pick<StaffRow, "id" | "totpSecret">,
  code: string,
  authSecret: string,
  now = Date.now(),
): Promise<SecondStep | null> {
  if (row.totpSecret === null) return null;
  if (looksLikeTotpCode(code)) {
    const step = matchTotpStep(unseal(row.totpSecret, authSecret), code, now);
    if (step === null) return null;
    const taken = await db
      .update(staff)
      .set({ totpLastStep: step })
      .where(and(eq(staff.id, row.id), isNotNull(staff.totpSecret), or(isNull(staff.totpLastStep), lt(staff.totpLastStep, step))))
      .returning({ id: staff.id });
    return taken.length > 0 ? "totp" : null;
  }
  const normalised = normaliseRecoveryCode(code);
  if (!normalised) return null;
  const used = await db
    .update(recoveryCodes)
    .set({ usedAt: new Date(now) })
    .where(and(eq(recoveryCodes.staffId, row.id), eq(recoveryCodes.codeHash, hashRecoveryCode(normalised, authSecret)), isNull(recoveryCodes.usedAt)))
    .returning({ id: recoveryCodes.id });
  return used.length > 0 ? "recovery_code" : null;
}

/** Removes the second step (the person's own disable, or an admin's reset); false when it was not on. */
export async function removeTwoStep(db: Db, staffId: string): Promise<boolean> {
  return db.transaction(async (tx) => {
    const updated = await tx
      .update(staff)
      .set({ totpSecret: null, totpPendingSecret: null, totpEnabledAt: null, totpLastStep: null, updatedAt: new Date() })
      .where(and(eq(staff.id, staffId), isNotNull(staff.totpSecret)))
      .returning({ id: staff.id });
    await tx.delete(recoveryCodes).where(eq(recoveryCodes.staffId, staffId));
    return updated.length > 0;
  });
}

/**
 * Ten new recovery codes in place of all the old ones (used or not), for a person whose two-step sign-in
 * is still on with `sealedSecret` (the one their code was checked against); null when it is not.
 * One transaction, so a sign-in never sees a mix of old and new.
 */
export async function replaceRecoveryCodes(db: Db, staffId: string, sealedSecret: string | null, authSecret: string): Promise<string[] | null> {
  if (sealedSecret === null) return null;
  const codes = newRecoveryCodes();
  return db.transaction(async (tx) => {
    // Locks the row, so a disable or reset running meanwhile cannot leave codes on an account without a secret.
    const on = await tx
      .update(staff)
      .set({ updatedAt: new Date() })
      .where(and(eq(staff.id, staffId), eq(staff.totpSecret, sealedSecret)))
      .returning({ id: staff.id });
    if (on.length === 0) return null;
    await tx.delete(recoveryCodes).where(eq(recoveryCodes.staffId, staffId));
    await tx.insert(recoveryCodes).values(codes.map((c) => ({ staffId, codeHash: hashRecoveryCode(normaliseRecoveryCode(c) ?? c, authSecret) })));
    return codes;
  });
}

/** How many of the person's recovery codes are still unused. */
export async function recoveryCodesLeft(db: Db, staffId: string): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(recoveryCodes)
    .where(and(eq(recoveryCodes.staffId, staffId), isNull(recoveryCodes.usedAt)));
  return Number(row?.n ?? 0);
}
