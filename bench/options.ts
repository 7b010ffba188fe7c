// Sizes of each benchmark: the for `npm run bench`, tiny ones for `--smoke` / BENCH_SMOKE=1.
import path from "node:path";

/** The steps `--only=a,b` can pick (e.g. `--only=intake`, `--only=follow-up,page-time`). */
export const BENCH_STEPS = [
  "intake",
  "page-weight",
  "follow-up",
  "live-latency",
  "amplification",
  "page-time",
  "scale-out",
  "campaigns",
  "lag",
  "payers",
  "plans",
  "day-book",
  "exceptions",
  "exports",
  "notifications",
  "webhooks-out",
  "api",
  "pay-pages",
] as const;
export type BenchStep = (typeof BENCH_STEPS)[number];

export interface BenchOptions {
  smoke: boolean;
  /** `--only=…`: just those steps (quick to repeat while tuning); bench/README.md is left alone. Null: every step. */
  only: ReadonlySet<BenchStep> | null;
  root: string;
  intake: { deliveries: number; repeatShare: number; concurrency: number; warmup: number; rounds: number };
  amplification: { viewers: number; pendingRequests: number; durationMs: number; pollIntervalMs: number; perViewerConcurrency: number };
  live: { accepts: number; declines: number; acceptTimeoutMs: number; declineTimeoutMs: number };
  /** Signed deliveries sent one at a time, each after a random pause of up to `maxPauseMs`; each waits for its verification. */
  followUp: { deliveries: number; maxPauseMs: number; timeoutMs: number };
  /**
   * The same viewer load on 1, 2, … instances sharing one Postgres database; `budgetPerMin` is the
   * SERVICE_RATE_LIMIT_PER_MIN they run with (the default), `marginShare` how much more the most instances may cause than one.
   */
  scaleOut: {
    instanceCounts: number[];
    viewers: number;
    pendingRequests: number;
    durationMs: number;
    pollIntervalMs: number;
    perViewerConcurrency: number;
    budgetPerMin: number;
    /** The budget of the extra rounds (one instance and the most): far above the load. */
    highBudgetPerMin: number;
    marginShare: number;
  };
  /** Every page's server time on a fresh database and after `payments` payments and `deliveries` delivery-log rows were added. */
  pageTime: { payments: number; deliveries: number; warmups: number; samples: number };
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
  /** A campaign of `rows` whose people accept at once, at the default budget, watched until all are accepted or `capMs`. */
  /** `chaseRows`: people who do not answer the first campaign and pay its ask-again round (the second round's step). */
  lag: { rows: number; capMs: number; chaseRows: number };
  /** The payers list at `basePayers` and at `payers` payers (two payments each), and a payer with `heavyRequests` requests. */
  payers: { basePayers: number; payers: number; heavyRequests: number; warmups: number; samples: number };
  /** A plan of `members` members with its last `periods` periods made (each run timed), then its dues board timed. */
  plans: { members: number; periods: number; warmups: number; samples: number };
  /** A year of `payments` payments and as many requests, then the year's day book timed. */
  dayBook: { payments: number; warmups: number; samples: number };
  /** The exceptions inbox at `baseExceptions` and at `exceptions` exceptions. */
  exceptions: { baseExceptions: number; exceptions: number; warmups: number; samples: number };
  /** A year of `payments` payments, then the year's Xero export asked for by `people` people at once. */
  exports: { payments: number; people: number };
  /** `payments` payments at `perSecond`, each e-mailed at once to `people` people; waits up to `timeoutMs` for every e-mail. */
  notifications: { payments: number; people: number; perSecond: number; timeoutMs: number };
  /** `events` payments at `perSecond` to three endpoints (one failing); waits up to `timeoutMs` for the good two. */
  outbound: { events: number; perSecond: number; timeoutMs: number };
  /**
   * `requests` fund requests and `reads` payment pages through each door (API key and session), `concurrency` at a
   * time, after `warmups` of each; `payments` signed deliveries first, `seedConcurrency` at a time. `reads` GETs of the OpenAPI document.
   */
  api: { requests: number; reads: number; concurrency: number; payments: number; seedConcurrency: number; warmups: number };
  /** `perSecond` pay-page submissions a second for `durationMs` from `addresses` addresses, challenges solved first. */
  payPages: { perSecond: number; durationMs: number; addresses: number };
  /** Postgres server for the intake comparison and the scale-out (DATABASE_URL); null: PGlite only, no scale-out. */
  postgresUrl: string | null;
  resultsFile: string;
  /** Only a full run of every step rewrites the figures in bench/README.md. */
  updateReadme: boolean;
  /**
   * BENCH_CHILD_RESULTS: this run is a step in a process of its own, started by a run that holds the build's lock
   * (bench/run.ts, `OWN_PROCESS`); its report goes to that file, for the parent to read.
   */
  child: boolean;
}

function readOnly(argv: readonly string[]): Set<BenchStep> | null {
  const arg = argv.find((a) => a.startsWith("--only="));
  if (!arg) return null;
  const names = arg.slice("--only=".length).split(",").filter(Boolean);
  const unknown = names.filter((n) => !(BENCH_STEPS as readonly string[]).includes(n));
  if (names.length === 0 || unknown.length > 0)
    throw new Error(`--only: unknown step(s) ${unknown.join(", ") || "(none given)"}; known: ${BENCH_STEPS.join(", ")}`);
  return new Set(names as BenchStep[]);
}

export function readOptions(argv: readonly string[], env: NodeJS.ProcessEnv): BenchOptions {
  const smoke = argv.includes("--smoke") || env.BENCH_SMOKE === "1";
  const only = readOnly(argv);
  const root = path.resolve(import.meta.dirname, "..");
  const postgresUrl = env.DATABASE_URL?.trim() || null;
  const results = (name: string) => path.join(root, "bench", "results", name);
  const childResults = env.BENCH_CHILD_RESULTS?.trim() || null;
  const child = { child: childResults !== null, ...(childResults ? { resultsFile: childResults, updateReadme: false } : {}) };
  if (smoke) {
    return {
      smoke,
      only,
      root,
      intake: { deliveries: 40, repeatShare: 0.1, concurrency: 10, warmup: 5, rounds: 1 },
      amplification: { viewers: 3, pendingRequests: 3, durationMs: 5_000, pollIntervalMs: 1_000, perViewerConcurrency: 3 },
      live: { accepts: 5, declines: 1, acceptTimeoutMs: 15_000, declineTimeoutMs: 60_000 },
      followUp: { deliveries: 5, maxPauseMs: 1_000, timeoutMs: 30_000 },
      scaleOut: {
        instanceCounts: [1, 2],
        viewers: 4,
        pendingRequests: 2,
        durationMs: 6_000,
        pollIntervalMs: 1_000,
        perViewerConcurrency: 2,
        budgetPerMin: 90,
        highBudgetPerMin: 6_000,
        marginShare: 0.1,
      },
      pageTime: { payments: 1_000, deliveries: 1_000, warmups: 2, samples: 3 },
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
      lag: { rows: 10, capMs: 120_000, chaseRows: 4 },
      payers: { basePayers: 100, payers: 1_000, heavyRequests: 100, warmups: 1, samples: 3 },
      plans: { members: 50, periods: 3, warmups: 1, samples: 3 },
      dayBook: { payments: 1_000, warmups: 1, samples: 3 },
      exceptions: { baseExceptions: 100, exceptions: 1_000, warmups: 1, samples: 3 },
      exports: { payments: 5_000, people: 6 },
      notifications: { payments: 20, people: 2, perSecond: 10, timeoutMs: 60_000 },
      outbound: { events: 20, perSecond: 10, timeoutMs: 60_000 },
      api: { requests: 20, reads: 20, concurrency: 4, payments: 50, seedConcurrency: 8, warmups: 2 },
      payPages: { perSecond: 5, durationMs: 4_000, addresses: 20 },
      postgresUrl,
      resultsFile: results("smoke.json"),
      updateReadme: false,
      ...child,
    };
  }
  return {
    smoke,
    only,
    root,
    intake: { deliveries: 2_000, repeatShare: 0.1, concurrency: 50, warmup: 50, rounds: 3 },
    amplification: { viewers: 50, pendingRequests: 20, durationMs: 60_000, pollIntervalMs: 5_000, perViewerConcurrency: 4 },
    live: { accepts: 100, declines: 20, acceptTimeoutMs: 15_000, declineTimeoutMs: 120_000 },
    followUp: { deliveries: 100, maxPauseMs: 1_000, timeoutMs: 30_000 },
    scaleOut: {
      instanceCounts: [1, 2, 3],
      viewers: 30,
      pendingRequests: 10,
      durationMs: 60_000,
      pollIntervalMs: 5_000,
      perViewerConcurrency: 4,
      budgetPerMin: 90,
      highBudgetPerMin: 6_000,
      marginShare: 0.1,
    },
    pageTime: { payments: 100_000, deliveries: 100_000, warmups: 3, samples: 7 },
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
    // 500 rows at the default 90 calls a minute: a send and a link confirmation each, 60 background calls a minute, about 17 min.
    lag: { rows: 500, capMs: 30 * 60_000, chaseRows: 30 },
    payers: { basePayers: 100, payers: 100_000, heavyRequests: 1_000, warmups: 3, samples: 7 },
    plans: { members: 1_000, periods: 12, warmups: 3, samples: 7 },
    dayBook: { payments: 100_000, warmups: 3, samples: 7 },
    exceptions: { baseExceptions: 100, exceptions: 100_000, warmups: 3, samples: 7 },
    // Just under the export's cap of 500,000 payments: the largest file anyone can ask for.
    exports: { payments: 490_000, people: 6 },
    // The issue's: 1,000 payments to 5 people with e-mail on; 1,000 events to 3 endpoints. 50 a second, a busy hour's peak.
    notifications: { payments: 1_000, people: 5, perSecond: 50, timeoutMs: 300_000 },
    outbound: { events: 1_000, perSecond: 50, timeoutMs: 120_000 },
    api: { requests: 300, reads: 300, concurrency: 4, payments: 1_000, seedConcurrency: 8, warmups: 5 },
    // The issue's: 50 submissions a second from 1,000 addresses for a minute (3 an address: under its limit of 5).
    payPages: { perSecond: 50, durationMs: 60_000, addresses: 1_000 },
    postgresUrl,
    // `--only=intake` keeps its old file name; other selections get theirs (e.g. follow-up+page-time-only.json).
    resultsFile: results(only ? `${[...only].join("+")}-only.json` : "latest.json"),
    updateReadme: only === null,
    ...child,
  };
}
