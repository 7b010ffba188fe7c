// Reference for `formatted_balance`, kept independent of lib/money so the two can be cross-checked.
const majorUnits = new Intl.NumberFormat("en-US", {
  minimumFractionDigits: 2,
  maximumFractionDigits: 2,
  roundingMode: "halfExpand",
  // A balance that rounds to zero prints "0.00", never "-0.00".
  signDisplay: "negative",
});

/** `"<currency> <balance/100>"`, from the balance's exact decimal as JSON carries it. */
export function formatBalance(currency: string, balanceMinor: number): string {
  if (!Number.isFinite(balanceMinor)) {
    throw new RangeError(`balance must be a finite number, got ${String(balanceMinor)}`);
  }
  return `${currency} ${majorUnits.format(dividedBy100(balanceMinor))}`;
}

// Intl reads a numeric string as an exact decimal, so shifting the exponent divides by 100 exactly.
function dividedBy100(n: number): `${number}` {
  const [mantissa, exponent = "0"] = String(n).split("e");
  return `${mantissa}E${Number(exponent) - 2}` as `${number}`;
}
