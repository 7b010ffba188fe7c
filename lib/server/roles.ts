import type { AppConfig } from "@/lib/config";

// Which background work a process runs (docs/decisions.md, "Workers apart (issue 38)"): `npm start` is the
// dashboard and the jobs in one process; WORKERS=0 makes a web-only instance that queues jobs and works none;
// `npm run worker` works every job and serves no page. Both kinds share one Postgres.

/** A dashboard (`npm start`, `next start`, the standalone server) or a jobs-only worker (`npm run worker`). */
export type ProcessKind = "web" | "worker";

export interface BackgroundPlan {
  /**
   * pg-boss's workers, its clocks (cron schedules, the chains' kick-off) and its maintenance (expiring lost jobs,
   * archiving): the jobs. Off on a web-only instance, whose engine still queues jobs (a webhook's follow-up, a
   * campaign's first pass).
   */
  jobs: boolean;
  /**
   * The live listener (lib/live/listen.ts): a browser on any web instance hears what any process committed, a
   * worker's jobs included. A worker serves no browser, so it only announces (inside its transactions).
   */
  liveListener: boolean;
}

/** What this process runs beside its requests (a worker has none). */
export function backgroundPlan(kind: ProcessKind, config: Pick<AppConfig, "workers" | "database">): BackgroundPlan {
  return { jobs: kind === "worker" || config.workers, liveListener: kind === "web" };
}

/** Why this configuration cannot run `npm run worker`, or null when it can. */
export function workerRefusal(config: Pick<AppConfig, "database">): string | null {
  if (config.database.kind === "postgres") return null;
  return [
    "Fundboard's worker cannot start: `npm run worker` needs DATABASE_URL.",
    `The embedded database (DATA_DIR, ${config.database.dataDir}) opens in one process only, so its jobs run inside \`npm start\` (WORKERS=1).`,
    "Set DATABASE_URL to the Postgres your web instances use, or run `npm start` alone.",
  ].join("\n");
}
