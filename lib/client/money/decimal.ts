// Exact decimal arithmetic on bigint: money never passes through binary floating point sums.

/** A decimal value: `units / 10^scale`. */
export interface Decimal {
  units: bigint;
  scale: number;
}

const DECIMAL_RE = /^([+-])?(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/;

/** Parses a decimal string (optionally with an exponent) exactly. Returns null when it is not one. */
export function parseDecimal(text: string): Decimal | null {
  const m = DECIMAL_RE.exec(text.trim());
  if (!m) return null;
  const [, sign, intPart = "0", fracPart = "", expPart] = m;
  const exp = expPart === undefined ? 0 : Number(expPart);
  if (!Number.isSafeInteger(exp) || Math.abs(exp) > 400) return null;
  let units = BigInt(intPart + fracPart);
  let scale = fracPart.length - exp;
  if (scale < 0) {
    units *= 10n ** BigInt(-scale);
    scale = 0;
  }
  return { units: sign === "-" ? -units : units, scale };
}

/** The exact decimal a JSON number carries: JS prints the shortest string that round-trips. */
export function decimalFromNumber(value: number): Decimal {
  if (!Number.isFinite(value)) throw new RangeError(`not a finite number: ${value}`);
  const parsed = parseDecimal(String(value));
  if (!parsed) throw new RangeError(`cannot read ${value} as a decimal`);
  return parsed;
}

export function toDecimal(value: number | string | Decimal): Decimal {
  if (typeof value === "number") return decimalFromNumber(value);
  if (typeof value === "string") {
    const parsed = parseDecimal(value);
    if (!parsed) throw new RangeError(`not a decimal: ${JSON.stringify(value)}`);
    return parsed;
  }
  return value;
}

/** Rescales to `scale` digits, rounding half away from zero. */
export function rescale(d: Decimal, scale: number): bigint {
  if (d.scale <= scale) return d.units * 10n ** BigInt(scale - d.scale);
  const divisor = 10n ** BigInt(d.scale - scale);
  const negative = d.units < 0n;
  const abs = negative ? -d.units : d.units;
  let q = abs / divisor;
  if ((abs % divisor) * 2n >= divisor) q += 1n;
  return negative ? -q : q;
}

/** Whether `d` has no more than `scale` significant fractional digits. */
export function fitsScale(d: Decimal, scale: number): boolean {
  if (d.scale <= scale) return true;
  return d.units % 10n ** BigInt(d.scale - scale) === 0n;
}

export function addDecimals(values: readonly Decimal[]): Decimal {
  const scale = values.reduce((s, v) => Math.max(s, v.scale), 0);
  const units = values.reduce((sum, v) => sum + rescale(v, scale), 0n);
  return { units, scale };
}

/** Fixed-point text of `units / 10^scale`, e.g. (123450n, 2) → "1234.50". */
export function fixedString(units: bigint, scale: number): string {
  const negative = units < 0n;
  const digits = (negative ? -units : units).toString().padStart(scale + 1, "0");
  const whole = digits.slice(0, digits.length - scale);
  const frac = scale > 0 ? `.${digits.slice(digits.length - scale)}` : "";
  return `${negative ? "-" : ""}${whole}${frac}`;
}

export function groupThousands(whole: string): string {
  return whole.replace(/\B(?=(\d{3})+(?!\d))/g, ",");
}
