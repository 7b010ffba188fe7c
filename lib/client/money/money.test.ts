import fc from "fast-check";
import { describe, expect, it } from "vitest";

import { formatBalance as sandboxFormat } from "@/sandbox/format";

import {
  formatMajor,
  formatMinor,
  koboToNaira,
  koboToServiceAmount,
  nairaToKobo,
  parseDecimal,
  rescale,
  serviceAmountToKobo,
  serviceAmountToNaira,
  sumMinor,
  currencyOf,
} from "./index";

describe("formatMinor", () => {
  it.each([
    [123456789, "NGN 1,234,567.89"],
    [0, "NGN 0.00"],
    [250000.5, "NGN 2,500.01"],
    [250000.4, "NGN 2,500.00"],
    [5, "NGN 0.05"],
    [100, "NGN 1.00"],
    [-123456, "NGN -1,234.56"],
    [99999999999999, "NGN 999,999,999,999.99"],
    [1e21, "NGN 10,000,000,000,000,000,000.00"],
    [5e-7, "NGN 0.00"],
  ])("formats %s kobo as %s", (minor, expected) => {
    expect(formatMinor("NGN", minor)).toBe(expected);
  });

  it("matches the sandbox's own formatter on integer and fractional balances", () => {
    const balance = fc.oneof(
      fc.integer({ min: -1_000_000_000_000, max: 1_000_000_000_000 }),
      fc.double({ min: -1e15, max: 1e15, noNaN: true, noDefaultInfinity: true }),
      fc.integer({ min: 0, max: 10_000_000_000 }).map((n) => n / 10),
      fc.integer({ min: 0, max: 10_000_000_000 }).map((n) => n + 0.5),
      fc.constantFrom(0, -0, 0.5, 1.5, 2.5, 0.005, 99.995, 1e21, 123456789.125),
    );
    fc.assert(
      fc.property(balance, fc.constantFrom("NGN", "USD", "GHS"), (minor, currency) => {
        expect(formatMinor(currency, minor)).toBe(sandboxFormat(currency, minor));
      }),
      { numRuns: 5000 },
    );
  });

  it("formats naira amounts the same way", () => {
    expect(formatMajor("NGN", "1234.5")).toBe("NGN 1,234.50");
    expect(formatMajor("NGN", 0.1)).toBe("NGN 0.10");
    expect(formatMajor("NGN", 1000000)).toBe("NGN 1,000,000.00");
  });
});

describe("sumMinor", () => {
  it("sums exactly where floats drift", () => {
    expect(0.1 + 0.2).not.toBe(0.3);
    expect(formatMinor("NGN", sumMinor([10.1, 20.2]))).toBe("NGN 0.30");
    const total = sumMinor([123456789, 250000.5, 0, 0.25]);
    expect(formatMinor("NGN", total)).toBe("NGN 1,237,067.90");
  });

  it("equals a bigint sum of scaled values for any balances", () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 10_000_000 }), { maxLength: 20 }), (tenths) => {
        const total = sumMinor(tenths.map((t) => t / 10));
        expect(rescale(total, 1)).toBe(tenths.reduce((s, t) => s + BigInt(t), 0n));
      }),
    );
  });
});

describe("amount conversion", () => {
  it("reads naira with at most two decimals into kobo", () => {
    expect(nairaToKobo("1234.5")).toBe(123450n);
    expect(nairaToKobo(0.1)).toBe(10n);
    expect(nairaToKobo(" 12 ")).toBe(1200n);
    expect(nairaToKobo("1.005")).toBeNull();
    expect(nairaToKobo("abc")).toBeNull();
    expect(nairaToKobo("1e3")).toBe(100000n);
  });

  it("round-trips every two-decimal naira amount through the service units without float error", () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 1n, max: 10n ** 13n }), fc.constantFrom("major" as const, "minor" as const), (kobo, unit) => {
        const sent = koboToServiceAmount(kobo, unit);
        expect(serviceAmountToKobo(sent, unit)).toBe(kobo);
        expect(serviceAmountToNaira(sent, unit)).toBe(koboToNaira(kobo));
      }),
      { numRuns: 3000 },
    );
  });

  it("sends naira in major units and kobo in minor units", () => {
    expect(koboToServiceAmount(123450n, "major")).toBe(1234.5);
    expect(koboToServiceAmount(123450n, "minor")).toBe(123450);
    expect(koboToNaira(5n)).toBe("0.05");
    expect(koboToNaira(-150n)).toBe("-1.50");
  });

  it("parses decimals with exponents exactly", () => {
    expect(parseDecimal("1.5e-7")).toEqual({ units: 15n, scale: 8 });
    expect(parseDecimal("12e2")).toEqual({ units: 1200n, scale: 0 });
    expect(parseDecimal("1,000")).toBeNull();
  });

  it("takes the currency from a formatted balance", () => {
    expect(currencyOf("NGN 1,234.00")).toBe("NGN");
    expect(currencyOf("1,234.00")).toBeNull();
  });
});
