import "server-only";

import type { Database } from "@/lib/db/client";
import { stopJobEngine } from "@/lib/jobs/engine";
import { closeAllStreams } from "@/lib/live/stream-limit";
import { closeMailTransport } from "@/lib/mail/transport";
import { safeErrorSummary } from "@/lib/log/safe-error";

// Graceful shutdown (docs/architecture.md, "Jobs"): on SIGTERM or SIGINT an instance stops taking jobs and
// lets running ones finish (a campaign pass stops between rows; 10 s at most), closes its live streams and its
// database pools, and exits 0. Next.js's own handlers (which exit at once) are replaced by this one. A jobs-only
// worker (`npm run worker`, lib/server/worker.ts) stops the same way, with no streams to close.

const controller = new AbortController();

/** Aborted once shutdown begins: job handlers stop between steps. */
export const shutdownSignal: AbortSignal = controller.signal;

/** `who` names the process in its log lines: the dashboard ("server") or the jobs-only worker ("worker"). */
export function installShutdown(database: Database, log: (line: string) => void, who: "server" | "worker" = "server"): void {
  let stopping = false;
  for (const signal of ["SIGTERM", "SIGINT"] as const) {
    // Next.js's handlers go; what a launcher hides from process.listeners stays (tsx's, which tells its parent
    // process the signal is handled here: without it tsx kills this process 60 ms after relaying a signal).
    for (const listener of process.listeners(signal)) process.removeListener(signal, listener);
    // Once: a signal sent to the process group often arrives twice (directly, and relayed by a parent such as tsx
    // or `npm start`), and a second must not end the graceful stop under way with the default action.
    process.on(signal, () => {
      if (stopping) return;
      stopping = true;
      void shutdown(signal, database, log, who);
    });
  }
}

async function shutdown(signal: NodeJS.Signals, database: Database, log: (line: string) => void, who: "server" | "worker"): Promise<void> {
  log(`[${who}] ${signal}: finishing running jobs (10 s at most), then stopping`);
  controller.abort();
  let code = 0;
  try {
    await stopJobEngine();
    // After the jobs: an e-mail being sent finishes before its connection closes.
    closeMailTransport();
    const streams = closeAllStreams();
    await database.close();
    log(`[${who}] stopped: jobs finished, ${who === "server" ? `${streams} live stream${streams === 1 ? "" : "s"} closed, ` : ""}database closed`);
  } catch (error) {
    code = 1;
    console.error(`[${who}] shutdown did not finish cleanly: ${safeErrorSummary(error)}`);
  }
  process.exit(code);
}
