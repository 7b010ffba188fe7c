import "server-only";

import { createHash, randomBytes } from "node:crypto";

// API keys' own form (docs/architecture.md "The API"): `fb_test_` (sandbox mode) or `fb_live_` + 32 random bytes in
// base62. Only the SHA-256 is stored; the prefix and the last 4 characters are kept to show.

export type KeyMode = "test" | "live";

const ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
const KEY_BYTES = 32;
// 32 bytes are at most 43 base62 digits; shorter numbers are padded with leading zeros so every key is as long.
const BODY_LENGTH = 43;
const KEY_RE = /^fb_(test|live)_([0-9A-Za-z]{43})$/;

export function keyPrefix(mode: KeyMode): string {
  return `fb_${mode}_`;
}

function base62(bytes: Buffer): string {
  let n = BigInt(`0x${bytes.toString("hex")}`);
  let out = "";
  while (n > 0n) {
    out = ALPHABET[Number(n % 62n)] + out;
    n /= 62n;
  }
  return out.padStart(BODY_LENGTH, "0");
}

/** A fresh key of `mode`: shown to the admin once, never stored. */
export function newApiKey(mode: KeyMode): string {
  return keyPrefix(mode) + base62(randomBytes(KEY_BYTES));
}

/** What is stored and looked up: the key's SHA-256, hex. */
export function hashApiKey(key: string): string {
  return createHash("sha256").update(key, "utf8").digest("hex");
}

/** The kind of key a string is written as, or null when it is not one of ours at all. */
export function keyModeOf(key: string): KeyMode | null {
  const match = KEY_RE.exec(key);
  return match ? (match[1] as KeyMode) : null;
}

/** The last 4 characters, shown beside the prefix ("fb_live_…a1B2"). */
export function lastFour(key: string): string {
  return key.slice(-4);
}
