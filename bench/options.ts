// Sizes of each benchmark: the for `npm run bench`, tiny ones for `--smoke` / BENCH_SMOKE=1.
import path from "node:path";

export interface BenchOptions {
  smoke: boolean;
  /** `--only=intake`: just the intake comparison (quick to repeat while tuning); the README is left alone. */
  onlyIntake: boolean;
  root: string;
  intake: { deliveries: number; repeatShare: number; concurrency: number; warmup: number; rounds: number };
  amplification: { viewers: number; pendingRequests: number; durationMs: number; pollIntervalMs: number; perViewerConcurrency: number };
  live: { accepts: number; declines: number; acceptTimeoutMs: number; declineTimeoutMs: number };
  /**
   * A campaign of `rows` on its own dashboard with SERVICE_RATE_LIMIT_PER_MIN = `rateLimitPerMin`, watched until done
   * or `capMs`; `parseRows`: the file uploaded (not started) to time the parse and check.
   */
  campaigns: {
    rows: number;
    parseRows: number;
    rateLimitPerMin: number;
    capMs: number;
    pollEveryMs: number;
    sampleEveryMs: number;
    personEveryMs: number;
    minPersonRequests: number;
  };
  /** Postgres server for the intake comparison (DATABASE_URL); null: PGlite only. */
  postgresUrl: string | null;
  resultsFile: string;
  /** Only a full run rewrites the README's Benchmarks section. */
  updateReadme: boolean;
}

export function readOptions(argv: readonly string[], env: NodeJS.ProcessEnv): BenchOptions {
  const smoke = argv.includes("--smoke") || env.BENCH_SMOKE === "1";
  const onlyIntake = argv.includes("--only=intake");
  const root = path.resolve(import.meta.dirname, "..");
  const postgresUrl = env.DATABASE_URL?.trim() || null;
  if (smoke) {
    return {
      smoke,
      onlyIntake,
      root,
      intake: { deliveries: 40, repeatShare: 0.1, concurrency: 10, warmup: 5, rounds: 1 },
      amplification: { viewers: 3, pendingRequests: 3, durationMs: 5_000, pollIntervalMs: 1_000, perViewerConcurrency: 3 },
      live: { accepts: 5, declines: 1, acceptTimeoutMs: 15_000, declineTimeoutMs: 60_000 },
      campaigns: {
        rows: 20,
        parseRows: 1_000,
        rateLimitPerMin: 600,
        capMs: 60_000,
        pollEveryMs: 1_000,
        sampleEveryMs: 1_000,
        personEveryMs: 2_000,
        minPersonRequests: 3,
      },
      postgresUrl,
      resultsFile: path.join(root, "bench", "results", "smoke.json"),
      updateReadme: false,
    };
  }
  return {
    smoke,
    onlyIntake,
    root,
    intake: { deliveries: 2_000, repeatShare: 0.1, concurrency: 50, warmup: 50, rounds: 3 },
    amplification: { viewers: 50, pendingRequests: 20, durationMs: 60_000, pollIntervalMs: 5_000, perViewerConcurrency: 4 },
    live: { accepts: 100, declines: 20, acceptTimeoutMs: 15_000, declineTimeoutMs: 120_000 },
    campaigns: {
      rows: 2_000,
      parseRows: 10_000,
      rateLimitPerMin: 600,
      capMs: 12 * 60_000,
      pollEveryMs: 1_000,
      sampleEveryMs: 1_000,
      personEveryMs: 2_000,
      minPersonRequests: 10,
    },
    postgresUrl,
    resultsFile: path.join(root, "bench", "results", onlyIntake ? "intake-only.json" : "latest.json"),
    updateReadme: !onlyIntake,
  };
}
