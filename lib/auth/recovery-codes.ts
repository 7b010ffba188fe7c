import "server-only";

import { createHmac, randomBytes } from "node:crypto";

import { derivedKey } from "./derived-key";

import { normaliseTotpInput } from "./totp";

export const RECOVERY_CODE_COUNT = 10;
/**
 * 32 symbols (5 bits each, so 10 characters = 50 bits): digits and lowercase letters without 0/o and 1/l,
 * the pairs people misread. 8 and 9 stay: without them only 30 symbols would be left, under 50 bits.
 */
export const RECOVERY_CODE_ALPHABET = "23456789abcdefghijkmnpqrstuvwxyz";
const CODE_LENGTH = 10;
const HKDF_INFO = "fundboard recovery codes v1";
const NORMALISED_PATTERN = new RegExp(`^[${RECOVERY_CODE_ALPHABET}]{${CODE_LENGTH}}$`);

const keyFor = (authSecret: string): Buffer => derivedKey(authSecret, HKDF_INFO);

function newRecoveryCode(): string {
  // 256 is a multiple of 32, so `byte & 31` picks each symbol with equal odds.
  const chars = Array.from(randomBytes(CODE_LENGTH), (byte) => RECOVERY_CODE_ALPHABET[byte & 31]).join("");
  return `${chars.slice(0, 5)}-${chars.slice(5)}`;
}

/** `count` distinct single-use codes shaped `xxxxx-xxxxx`, shown to the person once. */
export function newRecoveryCodes(count: number = RECOVERY_CODE_COUNT): string[] {
  const codes = new Set<string>();
  while (codes.size < count) codes.add(newRecoveryCode());
  return [...codes];
}

/** Lowercased, without spaces or dashes; null unless exactly 10 characters of the alphabet. */
export function normaliseRecoveryCode(input: string): string | null {
  const normalised = input.toLowerCase().replace(/[\s-]+/g, "");
  return NORMALISED_PATTERN.test(normalised) ? normalised : null;
}

/** HMAC-SHA256 (hex) of a normalised code, keyed from AUTH_SECRET so a leaked table alone cannot be brute-forced offline. */
export function hashRecoveryCode(normalised: string, authSecret: string): string {
  return createHmac("sha256", keyFor(authSecret)).update(normalised, "utf8").digest("hex");
}

/** Whether the sign-in form's one field holds an authenticator code (6 digits) rather than a recovery code. */
export function looksLikeTotpCode(input: string): boolean {
  return /^\d{6}$/.test(normaliseTotpInput(input));
}
