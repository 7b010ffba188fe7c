// When a failed delivery is tried again, and when a failing endpoint is warned about or turned off (docs/architecture.md
// "Outgoing webhooks"). Pure: the attempt job gives it the clock and the randomness.

/** Waits after attempts 1–10: 5 s, 1 min, 5 min, 30 min, 2 h, 5 h, 10 h, 14 h, 20 h, 24 h (11 attempts over about 76 h). */
export const RETRY_DELAYS_MS = [5_000, 60_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 50_400_000, 72_000_000, 86_400_000] as const;
export const MAX_ATTEMPTS = RETRY_DELAYS_MS.length + 1;
/** ±10%: endpoints that failed together are not all tried again at the same instant. */
export const JITTER = 0.1;
/** A receiver's Retry-After is honoured up to this. */
export const MAX_RETRY_AFTER_MS = 86_400_000;
export const WARN_AFTER_MS = 4 * 86_400_000;
export const DISABLE_AFTER_MS = 5 * 86_400_000;

/**
 * The wait before the attempt after `attempt` (1-based) failed; null when it was the last. A Retry-After (ms) of up to
 * 24 h replaces the schedule's wait.
 */
export function nextDelayMs(attempt: number, retryAfterMs: number | null, random: () => number = Math.random): number | null {
  if (attempt >= MAX_ATTEMPTS) return null;
  if (retryAfterMs !== null && retryAfterMs >= 0 && retryAfterMs <= MAX_RETRY_AFTER_MS) return retryAfterMs;
  const base: number = RETRY_DELAYS_MS[attempt - 1] ?? MAX_RETRY_AFTER_MS;
  return Math.round(base * (1 + JITTER * (2 * random() - 1)));
}

/** Retry-After as seconds or an HTTP date, in ms from `now`; null when absent or unreadable. */
export function parseRetryAfter(value: string | null | undefined, now: Date): number | null {
  if (!value) return null;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  const at = Date.parse(text);
  return Number.isNaN(at) ? null : Math.max(0, at - now.getTime());
}

/** What a failing spell calls for now: turn the endpoint off (5 days), warn its admins (4 days, once), or nothing. */
export function failingVerdict(failingSince: Date | null, warnedAt: Date | null, now: Date): "disable" | "warn" | null {
  if (!failingSince) return null;
  const failing = now.getTime() - failingSince.getTime();
  if (failing >= DISABLE_AFTER_MS) return "disable";
  if (failing >= WARN_AFTER_MS && !warnedAt) return "warn";
  return null;
}
