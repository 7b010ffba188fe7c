import "server-only";

const MAX_BACKOFF_MS = 10_000;

/** Retry-After as delay-seconds or an HTTP date, in ms from `now`; undefined when absent or unreadable. */
export function parseRetryAfter(header: string | null, now: number = Date.now()): number | undefined {
  if (header === null) return undefined;
  const value = header.trim();
  if (/^\d+$/.test(value)) return Number(value) * 1000;
  // All three HTTP-date forms open with a day name; this keeps Date.parse's leniency ("1.5", "-5") out.
  if (!/^(mon|tue|wed|thu|fri|sat|sun)/i.test(value)) return undefined;
  const at = Date.parse(value);
  if (Number.isNaN(at)) return undefined;
  return Math.max(0, at - now);
}

/** "Full jitter": uniform in [0, min(cap, base·2^attempt)], so many clients do not retry in step. */
export function fullJitterDelay(baseMs: number, attempt: number, random: () => number = Math.random): number {
  const ceiling = Math.min(MAX_BACKOFF_MS, baseMs * 2 ** attempt);
  return Math.floor(random() * ceiling);
}
