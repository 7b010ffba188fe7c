import { addDecimals, groupThousands, rescale, toDecimal, type Decimal } from "./decimal";

/**
 * The service's `formatted_balance`: currency code, a space, balance/100 with thousands
 * separators and two decimals. The balance is read as the exact decimal JSON carries and
 * rounded half away from zero (docs/decisions.md, "Money formatting").
 */
export function formatMinor(currency: string, balanceMinor: number | string | Decimal): string {
  const d = toDecimal(balanceMinor);
  const hundredths = rescale({ units: d.units, scale: d.scale + 2 }, 2);
  const negative = hundredths < 0n;
  const digits = (negative ? -hundredths : hundredths).toString().padStart(3, "0");
  const whole = groupThousands(digits.slice(0, -2));
  return `${currency} ${negative ? "-" : ""}${whole}.${digits.slice(-2)}`;
}

/** Naira (major units, any precision) formatted the service's way. */
export function formatMajor(currency: string, amountMajor: number | string | Decimal): string {
  return formatMinor(currency, times100(toDecimal(amountMajor)));
}

/** "₦5,000.00": the service's grouping and two decimals with the naira sign, as payers read it on pay pages. */
export function nairaText(amountMajor: number | string | Decimal): string {
  return formatMajor("NGN", amountMajor).replace(/^NGN /, "₦");
}

function times100(d: Decimal): Decimal {
  return d.scale >= 2 ? { units: d.units, scale: d.scale - 2 } : { units: d.units * 10n ** BigInt(2 - d.scale), scale: 0 };
}

/** Exact sum of minor-unit balances (as numbers the service sent). */
export function sumMinor(balances: readonly (number | string)[]): Decimal {
  return addDecimals(balances.map((b) => toDecimal(b)));
}

/** The currency code of a `formatted_balance` such as "NGN 1,234.00". */
export function currencyOf(formatted: string): string | null {
  const m = /^([A-Z]{3}) /.exec(formatted);
  return m?.[1] ?? null;
}
