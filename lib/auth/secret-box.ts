import "server-only";

import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from "node:crypto";

// Two-step secrets are encrypted at rest (AES-256-GCM) with a key derived from AUTH_SECRET, so a copied database alone does not yield them.
const VERSION_PREFIX = "v1.";
const HKDF_INFO = "fundboard totp secret v1";
const IV_BYTES = 12;
const TAG_BYTES = 16;
const KEY_CACHE_LIMIT = 8;
const OPEN_FAILED = "two-step secret could not be decrypted";

const keys = new Map<string, Buffer>();

function keyFor(authSecret: string): Buffer {
  if (!authSecret) throw new Error("AUTH_SECRET is empty");
  let key = keys.get(authSecret);
  if (!key) {
    key = Buffer.from(hkdfSync("sha256", authSecret, Buffer.alloc(0), HKDF_INFO, 32));
    if (keys.size >= KEY_CACHE_LIMIT) keys.clear();
    keys.set(authSecret, key);
  }
  return key;
}

/** Encrypts `plain`: "v1." + base64url(iv ‖ tag ‖ ciphertext), a fresh random IV each time. */
export function sealSecret(plain: string, authSecret: string): string {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv("aes-256-gcm", keyFor(authSecret), iv);
  const ciphertext = Buffer.concat([cipher.update(plain, "utf8"), cipher.final()]);
  return VERSION_PREFIX + Buffer.concat([iv, cipher.getAuthTag(), ciphertext]).toString("base64url");
}

/** Decrypts what sealSecret made; throws Error(OPEN_FAILED) on a bad format, a failed tag or another AUTH_SECRET. */
export function openSecret(sealed: string, authSecret: string): string {
  const key = keyFor(authSecret);
  if (!sealed.startsWith(VERSION_PREFIX)) throw new Error(OPEN_FAILED);
  const body = sealed.slice(VERSION_PREFIX.length);
  if (!/^[A-Za-z0-9_-]+$/.test(body)) throw new Error(OPEN_FAILED);
  const raw = Buffer.from(body, "base64url");
  // Reject non-canonical encodings (Buffer's base64url decoder is lenient about trailing bits).
  if (raw.length < IV_BYTES + TAG_BYTES || raw.toString("base64url") !== body) throw new Error(OPEN_FAILED);
  try {
    const decipher = createDecipheriv("aes-256-gcm", key, raw.subarray(0, IV_BYTES));
    decipher.setAuthTag(raw.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
    return Buffer.concat([decipher.update(raw.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString("utf8");
  } catch {
    throw new Error(OPEN_FAILED);
  }
}
