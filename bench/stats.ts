// Percentiles and summaries of latency samples (milliseconds).

export interface Summary {
  n: number;
  p50: number;
  p95: number;
  p99: number;
  mean: number;
  max: number;
}

/** Nearest-rank percentile of ascending-sorted values; NaN when there are none. */
export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1] ?? Number.NaN;
}

export function summarize(samples: readonly number[]): Summary {
  const sorted = [...samples].sort((a, b) => a - b);
  const total = sorted.reduce((sum, v) => sum + v, 0);
  return {
    n: sorted.length,
    p50: round(percentile(sorted, 50)),
    p95: round(percentile(sorted, 95)),
    p99: round(percentile(sorted, 99)),
    mean: round(sorted.length ? total / sorted.length : Number.NaN),
    max: round(sorted.length ? (sorted[sorted.length - 1] ?? Number.NaN) : Number.NaN),
  };
}

/** One decimal: enough for milliseconds, and stable in the JSON. */
export function round(value: number, digits = 1): number {
  if (!Number.isFinite(value)) return value;
  const f = 10 ** digits;
  return Math.round(value * f) / f;
}

/** The median of unsorted values, rounded as the tables show it. */
export function median(values: readonly number[]): number {
  return round(
    percentile(
      [...values].sort((a, b) => a - b),
      50,
    ),
  );
}
