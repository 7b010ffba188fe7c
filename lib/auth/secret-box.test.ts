import { describe, expect, it } from "vitest";

import { openSecret, sealSecret } from "./secret-box";

const AUTH_SECRET = "test-auth-secret-0123456789abcdef";
const OTHER_AUTH_SECRET = "another-auth-secret-fedcba9876543210";
const PLAIN = "GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ";
const FAILED = "two-step secret could not be decrypted";

function flipByte(sealed: string, index: number): string {
  const raw = Buffer.from(sealed.slice(3), "base64url");
  raw[index] = raw[index]! ^ 0x01;
  return "v1." + raw.toString("base64url");
}

describe("sealSecret / openSecret", () => {
  it("round-trips", () => {
    const sealed = sealSecret(PLAIN, AUTH_SECRET);
    expect(sealed).toMatch(/^v1\.[A-Za-z0-9_-]+$/);
    expect(sealed).not.toContain(PLAIN);
    expect(openSecret(sealed, AUTH_SECRET)).toBe(PLAIN);
    expect(openSecret(sealSecret("ünïcødé ✓", AUTH_SECRET), AUTH_SECRET)).toBe("ünïcødé ✓");
  });

  it("holds iv (12) + tag (16) + ciphertext", () => {
    const raw = Buffer.from(sealSecret(PLAIN, AUTH_SECRET).slice(3), "base64url");
    expect(raw).toHaveLength(12 + 16 + PLAIN.length);
  });

  it("gives a different result each time (random IV)", () => {
    const a = sealSecret(PLAIN, AUTH_SECRET);
    const b = sealSecret(PLAIN, AUTH_SECRET);
    expect(a).not.toBe(b);
    expect(Buffer.from(a.slice(3), "base64url").subarray(0, 12)).not.toEqual(Buffer.from(b.slice(3), "base64url").subarray(0, 12));
  });

  it("throws when any byte is flipped (IV, tag or ciphertext)", () => {
    const sealed = sealSecret(PLAIN, AUTH_SECRET);
    for (const index of [0, 11, 12, 27, 28, 12 + 16 + PLAIN.length - 1]) {
      expect(() => openSecret(flipByte(sealed, index), AUTH_SECRET), `byte ${index}`).toThrow(FAILED);
    }
  });

  it("throws under another AUTH_SECRET", () => {
    const sealed = sealSecret(PLAIN, AUTH_SECRET);
    expect(() => openSecret(sealed, OTHER_AUTH_SECRET)).toThrow(FAILED);
    expect(openSecret(sealSecret(PLAIN, OTHER_AUTH_SECRET), OTHER_AUTH_SECRET)).toBe(PLAIN);
  });

  it("throws a plain Error on malformed input", () => {
    const sealed = sealSecret(PLAIN, AUTH_SECRET);
    const body = sealed.slice(3);
    for (const bad of ["", "v1.", "v2." + body, body, "v1." + body + "!", "v1." + body.slice(0, 30), "v1.AAAA", "v1." + body + "=", PLAIN]) {
      let thrown: unknown;
      try {
        openSecret(bad, AUTH_SECRET);
      } catch (error) {
        thrown = error;
      }
      expect(thrown, JSON.stringify(bad)).toBeInstanceOf(Error);
      expect((thrown as Error).message).toBe(FAILED);
    }
  });
});
