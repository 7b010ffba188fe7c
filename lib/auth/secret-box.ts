import "server-only";

import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";

import { derivedKey } from "./derived-key";

// Two-step secrets are encrypted at rest (AES-256-GCM) with a key derived from AUTH_SECRET, so a copied database alone does not yield them.
const VERSION_PREFIX = "v1.";
const HKDF_INFO = "fundboard totp secret v1";
const IV_BYTES = 12;
const TAG_BYTES = 16;
const OPEN_FAILED = "two-step secret could not be decrypted";

const keyFor = (authSecret: string, info: string = HKDF_INFO): Buffer => derivedKey(authSecret, info);

/** Encrypts `plain` (`purpose`: another key for another kind of secret, e.g. webhook signing secrets): "v1." + base64url(iv ‖ tag ‖ ciphertext), a fresh random IV each time. */
export function sealSecret(plain: string, authSecret: string, purpose?: string): string {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv("aes-256-gcm", keyFor(authSecret, purpose), iv);
  const ciphertext = Buffer.concat([cipher.update(plain, "utf8"), cipher.final()]);
  return VERSION_PREFIX + Buffer.concat([iv, cipher.getAuthTag(), ciphertext]).toString("base64url");
}

/** Decrypts what sealSecret made; throws Error(OPEN_FAILED) on a bad format, a failed tag or another AUTH_SECRET. */
export function openSecret(sealed: string, authSecret: string, purpose?: string): string {
  const key = keyFor(authSecret, purpose);
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
