// TOTP (RFC 6238) building blocks. Pure on purpose (no "server-only"): tests and Playwright import it to compute codes.
import { timingSafeEqual } from "node:crypto";

import { generateSecret, generateSync } from "otplib";

export const TOTP_ISSUER = "Fundboard";
export const TOTP_PERIOD_S = 30;
export const TOTP_DIGITS = 6;
/** Codes of the previous and next 30 s step are accepted too, to allow for clock drift between server and phone. */
export const TOTP_WINDOW_STEPS = 1;
/** 20 bytes = 160 bits, RFC 4226's recommended secret length. */
export const TOTP_SECRET_BYTES = 20;

const CODE_PATTERN = /^\d{6}$/;

/** A fresh base32 secret (20 random bytes, 32 characters, no padding). */
export function newTotpSecret(): string {
  return generateSecret({ length: TOTP_SECRET_BYTES });
}

/** The otpauth:// URL authenticator apps scan; every default is spelled out, as some apps need them. */
export function totpUri(secret: string, accountEmail: string): string {
  const label = `${encodeURIComponent(TOTP_ISSUER)}:${encodeURIComponent(accountEmail)}`;
  const params = new URLSearchParams({ secret, issuer: TOTP_ISSUER, algorithm: "SHA1", digits: String(TOTP_DIGITS), period: String(TOTP_PERIOD_S) });
  return `otpauth://totp/${label}?${params.toString()}`;
}

/** The RFC 6238 time step (counter) at a time in milliseconds. */
export function totpStep(atMs: number): number {
  return Math.floor(atMs / 1000 / TOTP_PERIOD_S);
}

/** The 6-digit code (HMAC-SHA1) at a time in milliseconds; the clock is explicit so tests can fix it. */
export function totpCode(secret: string, atMs: number): string {
  return generateSync({ secret, algorithm: "sha1", digits: TOTP_DIGITS, period: TOTP_PERIOD_S, epoch: Math.floor(atMs / 1000) });
}

/** The code of one time step (e.g. the next step, for a test that must not reuse an accepted code). */
export function totpCodeAtStep(secret: string, step: number): string {
  return totpCode(secret, step * TOTP_PERIOD_S * 1000);
}

/** What the person typed, without spaces (apps show "123 456"). */
export function normaliseTotpInput(input: string): string {
  return input.replace(/\s+/g, "");
}

/**
 * The step in [step(now) - WINDOW, step(now) + WINDOW] whose code equals `code`, or null.
 * Replay protection is the caller's: store the last accepted step and refuse steps not after it.
 */
export function matchTotpStep(secret: string, code: string, nowMs: number): number | null {
  const typed = normaliseTotpInput(code);
  if (!CODE_PATTERN.test(typed)) return null;
  const typedBytes = Buffer.from(typed, "utf8");
  const now = totpStep(nowMs);
  let matched: number | null = null;
  // No early exit: every step in the window is computed and compared; on a (one in a million) double match the later step wins, the safer one for replay checks.
  for (let step = now - TOTP_WINDOW_STEPS; step <= now + TOTP_WINDOW_STEPS; step++) {
    if (step < 0) continue;
    const expected = Buffer.from(totpCodeAtStep(secret, step), "utf8");
    if (expected.length === typedBytes.length && timingSafeEqual(expected, typedBytes)) matched = step;
  }
  return matched;
}
