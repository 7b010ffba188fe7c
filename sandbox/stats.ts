// Counts service calls by route pattern so tests and benchmarks can assert how often the app calls out.
export interface StatsSnapshot {
  calls: Record<string, number>;
}

export class CallStats {
  private readonly counts = new Map<string, number>();

  record(method: string, route: string): void {
    const key = `${method} ${route}`;
    this.counts.set(key, (this.counts.get(key) ?? 0) + 1);
  }

  snapshot(): StatsSnapshot {
    return { calls: Object.fromEntries(this.counts) };
  }

  reset(): void {
    this.counts.clear();
  }
}
