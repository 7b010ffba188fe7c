// formatBalance is the reference lib/money is checked against, so its rule is pinned here.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { formatBalance } from "./format";

describe("formatBalance", () => {
  it.each([
    [250000.5, "NGN 2,500.01"],
    [0, "NGN 0.00"],
    [123456789, "NGN 1,234,567.89"],
    [9876543210.25, "NGN 98,765,432.10"],
    [1, "NGN 0.01"],
    [99, "NGN 0.99"],
    [100, "NGN 1.00"],
    [100000, "NGN 1,000.00"],
  ])("formats %s as %s", (balance, expected) => {
    expect(formatBalance("NGN", balance)).toBe(expected);
  });

  it("rounds half away from zero on the exact decimal", () => {
    expect(formatBalance("NGN", 0.5)).toBe("NGN 0.01");
    expect(formatBalance("NGN", 1.5)).toBe("NGN 0.02");
    expect(formatBalance("NGN", 2.5)).toBe("NGN 0.03");
    expect(formatBalance("NGN", 0.49)).toBe("NGN 0.00");
    expect(formatBalance("NGN", 100.4999)).toBe("NGN 1.00");
    // 1.005 is not exactly representable, but String() prints "1.005", and that decimal is the rule.
    expect(formatBalance("NGN", 1.005)).toBe("NGN 0.01");
    expect(formatBalance("NGN", 0.1 + 0.2)).toBe("NGN 0.00");
  });

  it("formats negative balances symmetrically, without a negative zero", () => {
    expect(formatBalance("NGN", -250000.5)).toBe("NGN -2,500.01");
    expect(formatBalance("NGN", -0.5)).toBe("NGN -0.01");
    expect(formatBalance("NGN", -123456789)).toBe("NGN -1,234,567.89");
    expect(formatBalance("NGN", -0.4)).toBe("NGN 0.00");
    expect(formatBalance("NGN", -0)).toBe("NGN 0.00");
  });

  it("handles values String() prints in exponent form", () => {
    expect(String(1e21)).toBe("1e+21");
    expect(formatBalance("NGN", 1e21)).toBe("NGN 10,000,000,000,000,000,000.00");
    expect(formatBalance("NGN", 1.2345e22)).toBe("NGN 123,450,000,000,000,000,000.00");
    expect(formatBalance("NGN", 5e-7)).toBe("NGN 0.00");
    expect(formatBalance("NGN", -5e-7)).toBe("NGN 0.00");
    expect(formatBalance("NGN", -1e21)).toBe("NGN -10,000,000,000,000,000,000.00");
  });

  it("uses the currency code it is given", () => {
    expect(formatBalance("USD", 1234)).toBe("USD 12.34");
  });

  it("rejects values JSON cannot carry", () => {
    expect(() => formatBalance("NGN", Number.NaN)).toThrow(RangeError);
    expect(() => formatBalance("NGN", Number.POSITIVE_INFINITY)).toThrow(RangeError);
  });

  it("reads large integers as String() prints them, not as their binary value", () => {
    // The double nearest 55377023366712784 is exactly that, but prints (and travels in JSON) as ...780.
    expect(String(55377023366712784)).toBe("55377023366712780");
    expect(formatBalance("NGN", 55377023366712784)).toBe("NGN 553,770,233,667,127.80");
  });

  it("matches digit-by-digit grouping of the printed integer for any whole number of kobo", () => {
    fc.assert(
      fc.property(fc.bigInt({ min: -(10n ** 20n), max: 10n ** 20n }), (generated) => {
        const n = Number(generated);
        const kobo = BigInt(String(n));
        const abs = kobo < 0n ? -kobo : kobo;
        const naira = (abs / 100n).toString().replace(/\B(?=(\d{3})+(?!\d))/g, ",");
        const sign = kobo < 0n ? "-" : "";
        expect(formatBalance("NGN", n)).toBe(`NGN ${sign}${naira}.${(abs % 100n).toString().padStart(2, "0")}`);
      }),
    );
  });
});
