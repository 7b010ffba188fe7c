import { fitsScale, fixedString, rescale, toDecimal, type Decimal } from "./decimal";

export type AmountUnit = "major" | "minor";

/** Naira with at most two decimals, as typed by a person or sent by a client. */
export const NAIRA_RE = /^\d{1,15}(\.\d{1,2})?$/;

/** Kobo (integer) from naira given as a number or decimal string; null if not ≤2 decimals. */
export function nairaToKobo(naira: number | string): bigint | null {
  let d: Decimal;
  try {
    d = toDecimal(typeof naira === "string" ? naira.trim() : naira);
  } catch {
    return null;
  }
  if (!fitsScale(d, 2)) return null;
  return rescale(d, 2);
}

/** "1234.50" from kobo. */
export function koboToNaira(kobo: bigint): string {
  return fixedString(kobo, 2);
}

/** The number to send the service for an amount in kobo, in the configured unit. */
export function koboToServiceAmount(kobo: bigint, unit: AmountUnit): number {
  // Number("1234.50") is the double nearest that decimal, whose shortest print is the decimal again.
  return unit === "minor" ? Number(kobo) : Number(fixedString(kobo, 2));
}

/** Kobo from an amount the service sent in the configured unit (rounded half away from zero to the kobo). */
export function serviceAmountToKobo(amount: number, unit: AmountUnit): bigint {
  const d = toDecimal(amount);
  return unit === "minor" ? rescale(d, 0) : rescale(d, 2);
}

/** Naira decimal string ("1234.50") from an amount the service sent. */
export function serviceAmountToNaira(amount: number, unit: AmountUnit): string {
  return koboToNaira(serviceAmountToKobo(amount, unit));
}
