// Days in the business's time zone (docs/decisions.md "Days are days in `TIMEZONE`": stored and sent as UTC, "today" and a report's day are days in
// TIMEZONE). Pure and browser-safe: the zone is passed in, never read from the environment here.

const parts = new Map<string, Intl.DateTimeFormat>();

function partsFormat(timeZone: string): Intl.DateTimeFormat {
  const cached = parts.get(timeZone);
  if (cached) return cached;
  const f = new Intl.DateTimeFormat("en-GB", {
    timeZone,
    hourCycle: "h23",
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
    hour: "2-digit",
    minute: "2-digit",
    second: "2-digit",
  });
  // Kept under the zone's canonical name only: the spellings of one zone (any case) are unbounded, the zones are not.
  const canonical = f.resolvedOptions().timeZone;
  if (canonical === timeZone) parts.set(timeZone, f);
  return parts.get(canonical) ?? f;
}

/** How many formatters are kept (one per canonical zone used): for the test that no spelling grows it. */
export function keptZoneFormats(): number {
  return parts.size;
}

/** True when `timeZone` is an IANA name this runtime knows (Africa/Lagos, Europe/London, UTC). */
export function isTimeZone(timeZone: string): boolean {
  try {
    partsFormat(timeZone);
    return true;
  } catch {
    return false;
  }
}

/** The wall clock of `at` in `timeZone`, as the UTC instant with the same fields (for offsets and days). */
function wallClock(at: Date, timeZone: string): number {
  const p: Record<string, number> = {};
  for (const { type, value } of partsFormat(timeZone).formatToParts(at)) if (type !== "literal") p[type] = Number(value);
  return Date.UTC(p.year ?? 1970, (p.month ?? 1) - 1, p.day ?? 1, p.hour ?? 0, p.minute ?? 0, p.second ?? 0);
}

/** The calendar day ("YYYY-MM-DD") that `at` falls on in `timeZone`. */
export function dayOf(at: Date, timeZone: string): string {
  return new Date(wallClock(at, timeZone)).toISOString().slice(0, 10);
}

/** `day` ("YYYY-MM-DD") moved by `n` calendar days. */
export function addDays(day: string, n: number): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);
}

/** Monday of the week `day` is in (a Lagos business week starts on Monday). */
export function mondayOf(day: string): string {
  const weekday = new Date(`${day}T00:00:00Z`).getUTCDay();
  return addDays(day, -((weekday + 6) % 7));
}

/** The first day of the calendar month `day` is in, moved by `n` months ("2026-03-11", -1 → "2026-02-01"). */
export function monthStart(day: string, n = 0): string {
  const d = new Date(`${day.slice(0, 8)}01T00:00:00Z`);
  return new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + n, 1)).toISOString().slice(0, 10);
}

/** The UTC instant at which `day` ("YYYY-MM-DD") begins in `timeZone` (DST-safe: the offset is taken at that instant). */
export function startOfDay(day: string, timeZone: string): Date {
  return wallTime(day, 0, timeZone);
}

/**
 * The UTC instant the wall clock of `timeZone` shows `minutes` past midnight of `day` (a plan's send time). In every
 * zone alike (docs/decisions.md "A send time in a skipped or repeated hour"): a time shown twice (clocks going back)
 * is its first showing; a time never shown (clocks going forward) is read with the offset before the change, so it
 * falls as much after the change as it was after the hour skipped (London's 01:30 is 02:30 summer time).
 */
export function wallTime(day: string, minutes: number, timeZone: string): Date {
  const target = Date.parse(`${day}T00:00:00Z`) + minutes * 60_000;
  const offsetAt = (at: number) => wallClock(new Date(at), timeZone) - at;
  // The offsets a day either side: a change of clocks on `day` lies between them.
  const earlier = target - offsetAt(target - 86_400_000);
  const later = target - offsetAt(target + 86_400_000);
  const shows = [earlier, later].filter((at) => wallClock(new Date(at), timeZone) === target);
  return new Date(shows.length > 0 ? Math.min(...shows) : earlier);
}

/** The first instant after `day` in `timeZone`: the end of a range that includes the whole of `day`. */
export function endOfDay(day: string, timeZone: string): Date {
  return startOfDay(addDays(day, 1), timeZone);
}

/** `at` as ISO 8601 with the zone's offset ("2026-03-11T00:05:00+01:00"): the reader's local time, still one instant. */
export function isoInZone(at: Date, timeZone: string): string {
  const seconds = Math.floor(at.getTime() / 1000) * 1000;
  const wall = wallClock(new Date(seconds), timeZone);
  const offset = Math.round((wall - seconds) / 60_000);
  const sign = offset < 0 ? "-" : "+";
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${new Date(wall).toISOString().slice(0, 19)}${sign}${pad(Math.floor(Math.abs(offset) / 60))}:${pad(Math.abs(offset) % 60)}`;
}
