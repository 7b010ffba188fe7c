import { createHmac, hkdfSync } from "node:crypto";

import { describe, expect, it } from "vitest";

import { hashRecoveryCode, looksLikeTotpCode, newRecoveryCodes, normaliseRecoveryCode, RECOVERY_CODE_ALPHABET, RECOVERY_CODE_COUNT } from "./recovery-codes";

const AUTH_SECRET = "test-auth-secret-0123456789abcdef";
const FORMAT = /^[23456789abcdefghijkmnpqrstuvwxyz]{5}-[23456789abcdefghijkmnpqrstuvwxyz]{5}$/;

describe("recovery code alphabet", () => {
  it("has 32 distinct unambiguous symbols (10 characters = 50 bits)", () => {
    expect(new Set(RECOVERY_CODE_ALPHABET).size).toBe(32);
    expect(RECOVERY_CODE_ALPHABET.length).toBe(32);
    expect(10 * Math.log2(RECOVERY_CODE_ALPHABET.length)).toBeGreaterThanOrEqual(50);
    for (const ambiguous of ["0", "1", "o", "l"]) expect(RECOVERY_CODE_ALPHABET).not.toContain(ambiguous);
    expect(RECOVERY_CODE_ALPHABET).toBe(RECOVERY_CODE_ALPHABET.toLowerCase());
  });
});

describe("newRecoveryCodes", () => {
  it("makes 10 distinct codes shaped xxxxx-xxxxx", () => {
    const codes = newRecoveryCodes();
    expect(RECOVERY_CODE_COUNT).toBe(10);
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    for (const code of codes) expect(code).toMatch(FORMAT);
  });

  it("honours the count and stays distinct across many", () => {
    expect(newRecoveryCodes(3)).toHaveLength(3);
    const many = newRecoveryCodes(500);
    expect(new Set(many).size).toBe(500);
  });

  it("uses the whole alphabet", () => {
    const seen = new Set(newRecoveryCodes(200).join("").replaceAll("-", ""));
    expect(seen.size).toBe(32);
  });

  it("yields codes that normalise to themselves without the dash", () => {
    for (const code of newRecoveryCodes()) expect(normaliseRecoveryCode(code)).toBe(code.replace("-", ""));
  });
});

describe("normaliseRecoveryCode", () => {
  it("accepts upper case, spaces and dashes", () => {
    for (const input of ["ABCDE FGHIJ", "abcde-fghij", "abcdefghij", "  AbCdE-FgHiJ  ", "abc de-fg hij"]) {
      expect(normaliseRecoveryCode(input), input).toBe("abcdefghij");
    }
  });

  it("refuses wrong lengths and characters outside the alphabet", () => {
    for (const input of [
      "",
      "abcde-fghi",
      "abcde-fghijk",
      "abcde-fghi0",
      "abcde-fghi1",
      "abcde-fghil",
      "abcde-fghio",
      "abcde_fghij",
      "abcde.fghij",
      "123456",
      "abcdé-fghij",
    ]) {
      expect(normaliseRecoveryCode(input), input).toBeNull();
    }
  });
});

describe("hashRecoveryCode", () => {
  it("is a stable HMAC-SHA256 hex keyed by HKDF(AUTH_SECRET)", () => {
    const hash = hashRecoveryCode("abcdefghij", AUTH_SECRET);
    expect(hash).toMatch(/^[0-9a-f]{64}$/);
    expect(hashRecoveryCode("abcdefghij", AUTH_SECRET)).toBe(hash);
    const key = Buffer.from(hkdfSync("sha256", AUTH_SECRET, Buffer.alloc(0), "fundboard recovery codes v1", 32));
    expect(hash).toBe(createHmac("sha256", key).update("abcdefghij").digest("hex"));
    expect(hash).not.toBe(createHmac("sha256", AUTH_SECRET).update("abcdefghij").digest("hex"));
  });

  it("differs per AUTH_SECRET and per code", () => {
    const hash = hashRecoveryCode("abcdefghij", AUTH_SECRET);
    expect(hashRecoveryCode("abcdefghij", "another-auth-secret")).not.toBe(hash);
    expect(hashRecoveryCode("abcdefghik", AUTH_SECRET)).not.toBe(hash);
  });
});

describe("looksLikeTotpCode", () => {
  it("is true for six digits, spaces allowed", () => {
    for (const input of ["123456", " 123456 ", "123 456", "000000"]) expect(looksLikeTotpCode(input), input).toBe(true);
  });

  it("is false for recovery codes and anything else", () => {
    for (const input of ["", "12345", "1234567", "12345a", "abcde-fghij", "abcdefghij", "123-456"]) expect(looksLikeTotpCode(input), input).toBe(false);
  });
});
