import "server-only";
import { describe, expect, it } from "vitest";
import { fullJitterDelay, parseRetryAfter } from "./retry";

describe("parseRetryAfter", () => {
  const now = Date.parse("2024-05-01T10:00:00.000Z");

  it("reads delay-seconds", () => {
    expect(parseRetryAfter("1", now)).toBe(1000);
    expect(parseRetryAfter(" 120 ", now)).toBe(120_000);
    expect(parseRetryAfter("0", now)).toBe(0);
  });

  it("reads an HTTP date relative to now, never negative", () => {
    expect(parseRetryAfter("Wed, 01 May 2024 10:00:07 GMT", now)).toBe(7000);
    expect(parseRetryAfter("Wed, 01 May 2024 09:59:00 GMT", now)).toBe(0);
    expect(parseRetryAfter("Wednesday, 01-May-24 10:00:03 GMT", now)).toBe(3000);
    expect(parseRetryAfter("Wed May  1 10:00:02 2024", now)).toBeGreaterThanOrEqual(0);
  });

  it.each([null, "", "soon", "-5", "1.5", "Wed, garbage"])("gives undefined for %j", (header) => {
    expect(parseRetryAfter(header, now)).toBeUndefined();
  });
});

describe("fullJitterDelay", () => {
  it("is uniform between 0 and base·2^attempt", () => {
    expect(fullJitterDelay(250, 0, () => 0)).toBe(0);
    expect(fullJitterDelay(250, 0, () => 0.999)).toBe(249);
    expect(fullJitterDelay(250, 2, () => 0.5)).toBe(500);
  });

  it("is capped", () => {
    expect(fullJitterDelay(250, 30, () => 0.999)).toBeLessThan(10_000);
  });
});
