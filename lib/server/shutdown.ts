import "server-only";

import type { Database } from "@/lib/db/client";
import { stopJobEngine } from "@/lib/jobs/engine";
import { closeAllStreams } from "@/lib/live/stream-limit";
import { safeErrorSummary } from "@/lib/log/safe-error";

// Graceful shutdown (docs/architecture.md, "Jobs"): on SIGTERM or SIGINT an instance stops taking jobs and
// lets running ones finish (a campaign pass stops between rows; 10 s at most), closes its live streams and its
// database pools, and exits 0. Next.js's own handlers (which exit at once) are replaced by this one.

const controller = new AbortController();

/** Aborted once shutdown begins: job handlers stop between steps. */
export const shutdownSignal: AbortSignal = controller.signal;

export function installShutdown(database: Database, log: (line: string) => void): void {
  for (const signal of ["SIGTERM", "SIGINT"] as const) {
    process.removeAllListeners(signal);
    process.once(signal, () => void shutdown(signal, database, log));
  }
}

async function shutdown(signal: NodeJS.Signals, database: Database, log: (line: string) => void): Promise<void> {
  log(`[server] ${signal}: finishing running jobs (10 s at most), then stopping`);
  controller.abort();
  let code = 0;
  try {
    await stopJobEngine();
    const streams = closeAllStreams();
    await database.close();
    log(`[server] stopped: jobs finished, ${streams} live stream${streams === 1 ? "" : "s"} closed, database closed`);
  } catch (error) {
    code = 1;
    console.error(`[server] shutdown did not finish cleanly: ${safeErrorSummary(error)}`);
  }
  process.exit(code);
}
