import { describe, expect, it } from "vitest";

import { DISABLE_AFTER_MS, failingVerdict, MAX_ATTEMPTS, nextDelayMs, parseRetryAfter, RETRY_DELAYS_MS } from "./schedule";

const H = 3_600_000;

describe("the outgoing webhooks' retry schedule", () => {
  it("waits 5 s, 1 min, 5 min, 30 min, 2 h, 5 h, 10 h, 14 h, 20 h, 24 h, then stops: 11 attempts over about 76 h", () => {
    const exact = Array.from({ length: MAX_ATTEMPTS }, (_, i) => nextDelayMs(i + 1, null, () => 0.5));
    expect(exact).toEqual([5_000, 60_000, 300_000, 1_800_000, 2 * H, 5 * H, 10 * H, 14 * H, 20 * H, 24 * H, null]);
    const total = RETRY_DELAYS_MS.reduce((a, b) => a + b, 0);
    expect(Math.round(total / H)).toBe(76);
  });

  it("jitters each wait by at most ±10%", () => {
    expect(nextDelayMs(2, null, () => 0)).toBe(54_000);
    expect(nextDelayMs(2, null, () => 1)).toBe(66_000);
    expect(nextDelayMs(10, null, () => 0)).toBe(Math.round(24 * H * 0.9));
  });

  it("honours a Retry-After of up to 24 h, in seconds or as a date; a longer one keeps the schedule", () => {
    const now = new Date("2026-11-28T10:00:00Z");
    expect(parseRetryAfter("120", now)).toBe(120_000);
    expect(parseRetryAfter("Sat, 28 Nov 2026 10:30:00 GMT", now)).toBe(30 * 60_000);
    expect(parseRetryAfter("soon", now)).toBeNull();
    expect(nextDelayMs(1, 120_000, () => 0.5)).toBe(120_000);
    expect(nextDelayMs(1, 25 * H, () => 0.5)).toBe(5_000);
    // The last attempt is the last, whatever the receiver asks.
    expect(nextDelayMs(MAX_ATTEMPTS, 60_000)).toBeNull();
  });

  it("warns at 4 days of failing (once) and turns the endpoint off at 5", () => {
    const since = new Date("2026-11-20T00:00:00Z");
    const at = (hours: number) => new Date(since.getTime() + hours * H);
    expect(failingVerdict(null, null, at(200))).toBeNull();
    expect(failingVerdict(since, null, at(95))).toBeNull();
    expect(failingVerdict(since, null, at(96))).toBe("warn");
    expect(failingVerdict(since, at(96), at(100))).toBeNull();
    expect(failingVerdict(since, at(96), new Date(since.getTime() + DISABLE_AFTER_MS))).toBe("disable");
  });
});
