// Money is held as scaled BigInts so sums and fees never pick up binary-float drift.
const PRINTED_NUMBER = /^(-)?(\d+)(?:\.(\d+))?(?:e([+-]?\d+))?$/;

/** `n × 10^scale` exactly, read from the decimal JS prints for n; null if n has finer digits. */
export function toScaled(n: number, scale: number): bigint | null {
  if (!Number.isFinite(n)) return null;
  const match = PRINTED_NUMBER.exec(String(n));
  if (!match) return null;
  const [, sign, whole = "0", fraction = "", exponent = "0"] = match;
  let digits = BigInt(whole + fraction);
  const shift = Number(exponent) - fraction.length + scale;
  if (shift >= 0) {
    digits *= 10n ** BigInt(shift);
  } else {
    const divisor = 10n ** BigInt(-shift);
    if (digits % divisor !== 0n) return null;
    digits /= divisor;
  }
  return sign ? -digits : digits;
}

/** The number nearest to `value / 10^scale` (its String() is that decimal, trailing zeros dropped). */
export function fromScaled(value: bigint, scale: number): number {
  const negative = value < 0n;
  const digits = (negative ? -value : value).toString().padStart(scale + 1, "0");
  const cut = digits.length - scale;
  return Number(`${negative ? "-" : ""}${digits.slice(0, cut)}.${digits.slice(cut)}`);
}
