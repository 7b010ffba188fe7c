// The day book's days arrive as "YYYY-MM-DD", already days in TIMEZONE: formatted at UTC midnight, they stay as they are.
const short = new Intl.DateTimeFormat("en-GB", { weekday: "short", day: "numeric", month: "short", timeZone: "UTC" });
const long = new Intl.DateTimeFormat("en-GB", { weekday: "short", day: "numeric", month: "short", year: "numeric", timeZone: "UTC" });

/** "Tue 24 Nov"; with the year ("Tue, 24 Nov 2026") when `withYear` (a range over two calendar years). */
export function dayLabel(day: string, withYear = false): string {
  return (withYear ? long : short).format(new Date(`${day}T00:00:00Z`));
}

/** Whether the range's days fall in more than one calendar year, so their labels need the year. */
export function spansYears(from: string, to: string): boolean {
  return from.slice(0, 4) !== to.slice(0, 4);
}

/** A decimal naira string that is zero ("0.00", "-0.00"). */
export function isZero(amount: string): boolean {
  return /^-?0*(\.0*)?$/.test(amount) && /\d/.test(amount);
}
