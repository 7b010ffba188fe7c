// Converts request amounts between the configured wire unit and exact kobo, and prices the fee.
import { fromScaled, toScaled } from "./decimal";
import type { AmountUnit } from "./types";

const FEE_CAP_KOBO = 10_000n;

function scaleOf(unit: AmountUnit): number {
  return unit === "major" ? 2 : 0;
}

/** Exact kobo for a wire amount, or null if it has more precision than the unit allows. */
export function amountToKobo(amount: number, unit: AmountUnit): bigint | null {
  return toScaled(amount, scaleOf(unit));
}

export function koboToAmount(kobo: bigint, unit: AmountUnit): number {
  return fromScaled(kobo, scaleOf(unit));
}

/** 1% of the amount, rounded half up to whole kobo, capped at NGN 100. */
export function feeKobo(amountKobo: bigint): bigint {
  const fee = (amountKobo + 50n) / 100n;
  return fee > FEE_CAP_KOBO ? FEE_CAP_KOBO : fee;
}
