import { createHmac } from "node:crypto";

import { generateSync } from "otplib";
import { describe, expect, it } from "vitest";

import { matchTotpStep, newTotpSecret, TOTP_DIGITS, TOTP_PERIOD_S, TOTP_WINDOW_STEPS, totpCode, totpCodeAtStep, totpStep, totpUri } from "./totp";

// RFC 6238 Appendix B: the SHA-1 seed is the ASCII "12345678901234567890"; this is its base32.
const RFC_ASCII_SECRET = "12345678901234567890";
const RFC_SECRET = "GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ";
const RFC_VECTORS: ReadonlyArray<readonly [seconds: number, eightDigits: string]> = [
  [59, "94287082"],
  [1111111109, "07081804"],
  [1111111111, "14050471"],
  [1234567890, "89005924"],
  [2000000000, "69279037"],
];

/** An independent RFC 4226 HOTP over node:crypto, to check otplib's codes against. */
function referenceHotp(key: Buffer, counter: number, digits: number): string {
  const message = Buffer.alloc(8);
  message.writeBigUInt64BE(BigInt(counter));
  const mac = createHmac("sha1", key).update(message).digest();
  const offset = mac[mac.length - 1]! & 0x0f;
  const binary = mac.readUInt32BE(offset) & 0x7fffffff;
  return String(binary % 10 ** digits).padStart(digits, "0");
}

function base32Decode(text: string): Buffer {
  const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";
  let bits = "";
  for (const char of text) {
    const value = alphabet.indexOf(char);
    if (value < 0) throw new Error(`not base32: ${char}`);
    bits += value.toString(2).padStart(5, "0");
  }
  const bytes: number[] = [];
  for (let i = 0; i + 8 <= bits.length; i += 8) bytes.push(parseInt(bits.slice(i, i + 8), 2));
  return Buffer.from(bytes);
}

describe("TOTP constants", () => {
  it("are the authenticator-app defaults with a one-step window", () => {
    expect([TOTP_PERIOD_S, TOTP_DIGITS, TOTP_WINDOW_STEPS]).toEqual([30, 6, 1]);
  });
});

describe("totpCode", () => {
  it("the base32 test secret is the RFC's ASCII seed", () => {
    expect(base32Decode(RFC_SECRET).toString("ascii")).toBe(RFC_ASCII_SECRET);
  });

  it.each(RFC_VECTORS)("matches RFC 6238 Appendix B (SHA-1) at T=%i s", (seconds, eightDigits) => {
    expect(totpCode(RFC_SECRET, seconds * 1000)).toBe(eightDigits.slice(-6));
    // The same instant with milliseconds still in that step.
    expect(totpCode(RFC_SECRET, seconds * 1000 + 999)).toBe(eightDigits.slice(-6));
  });

  it.each(RFC_VECTORS)("agrees with an independent node:crypto HOTP and otplib's 8 digits at T=%i s", (seconds, eightDigits) => {
    const counter = Math.floor(seconds / 30);
    expect(referenceHotp(Buffer.from(RFC_ASCII_SECRET, "ascii"), counter, 8)).toBe(eightDigits);
    expect(generateSync({ secret: RFC_SECRET, epoch: seconds, digits: 8 })).toBe(eightDigits);
    expect(totpCode(RFC_SECRET, seconds * 1000)).toBe(referenceHotp(Buffer.from(RFC_ASCII_SECRET, "ascii"), counter, 6));
  });

  it("changes at the step boundary, and totpCodeAtStep names the same code", () => {
    const boundaryMs = 1111111110 * 1000; // a multiple of 30 s
    expect(totpStep(boundaryMs - 1)).toBe(totpStep(boundaryMs) - 1);
    expect(totpCode(RFC_SECRET, boundaryMs - 1)).toBe("081804"); // T=1111111109 is the step before
    expect(totpCode(RFC_SECRET, boundaryMs)).toBe("050471"); // T=1111111111 is this step
    expect(totpCodeAtStep(RFC_SECRET, totpStep(boundaryMs))).toBe("050471");
    expect(totpCodeAtStep(RFC_SECRET, totpStep(boundaryMs) - 1)).toBe("081804");
  });
});

describe("totpStep", () => {
  it("is floor(ms / 1000 / 30)", () => {
    expect(totpStep(0)).toBe(0);
    expect(totpStep(29_999)).toBe(0);
    expect(totpStep(30_000)).toBe(1);
    expect(totpStep(59_000)).toBe(1);
    expect(totpStep(1111111111 * 1000)).toBe(37037037);
    expect(totpStep(2000000000 * 1000)).toBe(66666666);
  });
});

describe("matchTotpStep", () => {
  const nowMs = 1111111111 * 1000 + 250;
  const now = totpStep(nowMs);

  it("accepts the current step's code and returns that step", () => {
    expect(matchTotpStep(RFC_SECRET, "050471", nowMs)).toBe(now);
  });

  it("accepts the previous and next step (clock drift) and says which", () => {
    expect(matchTotpStep(RFC_SECRET, "081804", nowMs)).toBe(now - 1);
    expect(matchTotpStep(RFC_SECRET, totpCodeAtStep(RFC_SECRET, now + 1), nowMs)).toBe(now + 1);
  });

  it("refuses codes two steps away", () => {
    const twoBack = totpCodeAtStep(RFC_SECRET, now - 2);
    const twoAhead = totpCodeAtStep(RFC_SECRET, now + 2);
    // Guard against an accidental collision with a code inside the window, which would make this test meaningless.
    const inWindow = [-1, 0, 1].map((d) => totpCodeAtStep(RFC_SECRET, now + d));
    expect(inWindow).not.toContain(twoBack);
    expect(inWindow).not.toContain(twoAhead);
    expect(matchTotpStep(RFC_SECRET, twoBack, nowMs)).toBeNull();
    expect(matchTotpStep(RFC_SECRET, twoAhead, nowMs)).toBeNull();
  });

  it("trims spaces (apps show '050 471')", () => {
    expect(matchTotpStep(RFC_SECRET, " 050471 ", nowMs)).toBe(now);
    expect(matchTotpStep(RFC_SECRET, "050 471", nowMs)).toBe(now);
  });

  it("refuses non-digits, wrong lengths and seven digits", () => {
    for (const code of ["", "      ", "05047a", "O50471", "50471", "0504710", "1050471", "-50471", "050471\u0661", "050.47", "٠٥٠٤٧١"]) {
      expect(matchTotpStep(RFC_SECRET, code, nowMs), code).toBeNull();
    }
  });

  it("refuses a code of another secret", () => {
    const other = "JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP";
    const code = totpCode(other, nowMs);
    expect([-1, 0, 1].map((d) => totpCodeAtStep(RFC_SECRET, now + d))).not.toContain(code);
    expect(matchTotpStep(other, code, nowMs)).toBe(now);
    expect(matchTotpStep(RFC_SECRET, code, nowMs)).toBeNull();
  });
});

describe("newTotpSecret", () => {
  it("is 32 base32 characters (20 bytes) and fresh each time", () => {
    const a = newTotpSecret();
    const b = newTotpSecret();
    expect(a).toMatch(/^[A-Z2-7]{32}$/);
    expect(base32Decode(a)).toHaveLength(20);
    expect(a).not.toBe(b);
  });

  it("yields codes that match", () => {
    const secret = newTotpSecret();
    const atMs = 1_700_000_000_000;
    const code = totpCode(secret, atMs);
    expect(code).toMatch(/^\d{6}$/);
    expect(code).toBe(referenceHotp(base32Decode(secret), totpStep(atMs), 6));
    expect(matchTotpStep(secret, code, atMs)).toBe(totpStep(atMs));
  });
});

describe("totpUri", () => {
  it("is the otpauth URL with every parameter and the e-mail encoded", () => {
    const uri = totpUri(RFC_SECRET, "ada+ops&x@fund.test");
    expect(uri.startsWith("otpauth://totp/Fundboard:")).toBe(true);
    expect(uri).toContain("ada%2Bops%26x%40fund.test");
    const url = new URL(uri);
    expect(url.protocol).toBe("otpauth:");
    expect(url.host).toBe("totp");
    expect(decodeURIComponent(url.pathname)).toBe("/Fundboard:ada+ops&x@fund.test");
    expect(Object.fromEntries(url.searchParams)).toEqual({ secret: RFC_SECRET, issuer: "Fundboard", algorithm: "SHA1", digits: "6", period: "30" });
    expect(url.hash).toBe("");
  });
});
