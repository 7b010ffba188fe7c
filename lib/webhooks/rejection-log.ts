import "server-only";

import { sql } from "drizzle-orm";

import type { Db } from "@/lib/db/client";
import { webhookDeliveries } from "@/lib/db/schema";
import { safeErrorSummary } from "@/lib/log/safe-error";
import { processSingleton } from "@/lib/util/process-singleton";

// docs/architecture.md: unauthenticated junk must cost almost nothing, so the answer never waits on the
// database, a source's first few dozen an hour become ordinary rows and the rest one counted row.

/** The outcomes of deliveries that never proved they came from the service. */
export type RejectedOutcome = "bad_signature" | "too_large";

export interface Rejection {
  outcome: RejectedOutcome;
  httpStatus: number;
  remoteAddr: string | null;
  detail: string;
}

export interface RejectionLogOptions {
  /** Ordinary rows per outcome and source each UTC hour; the rest are folded into one counted row. */
  rowsPerSourceHour: number;
  /** Ordinary rows per UTC hour over all sources, so many sources cannot fill the log either. */
  rowsPerHour: number;
  /** Sources tracked each hour; rejections from any further address share the source "other". */
  maxSources: number;
  /** Ordinary-row inserts running at once. */
  writeConcurrency: number;
  /** Ordinary rows waiting to be inserted; past this, rejections are folded instead. */
  maxQueuedRows: number;
  /** Folded counts are written this often… */
  flushMs: number;
  /** …or as soon as this many folded rows are waiting. */
  flushAtFolds: number;
  now: () => number;
  log: (line: string) => void;
}

export interface RejectionLog {
  /** Takes note of a rejected delivery; never waits and never throws. */
  note(rejection: Rejection): void;
  /** Resolves once everything noted before the call is written (or its failure logged). */
  flush(): Promise<void>;
}

export const OTHER_SOURCES = "other";
/** Rejections per outcome, source and UTC hour written as ordinary rows before the rest are folded. */
export const ROWS_PER_SOURCE_HOUR = 30;
const HOUR_MS = 3_600_000;
const MAX_ADDR_CHARS = 100;

type RowInsert = typeof webhookDeliveries.$inferInsert;

interface Fold {
  foldKey: string;
  outcome: RejectedOutcome;
  httpStatus: number;
  remoteAddr: string | null;
  other: boolean;
  count: number;
  lastAt: number;
}

export function foldKey(outcome: RejectedOutcome, source: string, at: number): string {
  return `${outcome}|${source}|${new Date(Math.floor(at / HOUR_MS) * HOUR_MS).toISOString()}`;
}

export function createRejectionLog(db: Db, options: Partial<RejectionLogOptions> = {}): RejectionLog {
  const opts: RejectionLogOptions = {
    rowsPerSourceHour: ROWS_PER_SOURCE_HOUR,
    rowsPerHour: 1_000,
    maxSources: 1_000,
    writeConcurrency: 2,
    maxQueuedRows: 200,
    flushMs: 1_000,
    flushAtFolds: 200,
    now: Date.now,
    log: console.error,
    ...options,
  };

  // The tally of the current UTC hour; an earlier hour's is dropped when the next begins.
  let hour = Number.NaN;
  const seen = new Map<string, number>();
  const sources = new Set<string>();
  let rowsThisHour = 0;

  const rowQueue: RowInsert[] = [];
  let writing = 0;
  const rowsIdle: (() => void)[] = [];

  let folds = new Map<string, Fold>();
  let timer: ReturnType<typeof setTimeout> | null = null;
  let lastFlush: Promise<void> = Promise.resolve();
  let waitingFlush: Promise<void> | null = null;

  function pumpRows(): void {
    while (writing < opts.writeConcurrency) {
      const row = rowQueue.shift();
      if (row === undefined) break;
      writing += 1;
      db.insert(webhookDeliveries)
        .values(row)
        .then(
          () => undefined,
          (error: unknown) => opts.log(`[webhook] could not log a rejected delivery: ${safeErrorSummary(error)}`),
        )
        .finally(() => {
          writing -= 1;
          if (writing === 0 && rowQueue.length === 0) for (const resolve of rowsIdle.splice(0)) resolve();
          else pumpRows();
        });
    }
  }

  async function writeFolds(): Promise<void> {
    if (folds.size === 0) return;
    const batch = [...folds.values()];
    folds = new Map();
    const values: RowInsert[] = batch.map((f) => ({
      outcome: f.outcome,
      httpStatus: f.httpStatus,
      remoteAddr: f.remoteAddr,
      receivedAt: new Date(f.lastAt),
      count: f.count,
      foldKey: f.foldKey,
      // A folded row stores its count only; its sentence is made when it is read (lib/webhooks/log-queries.ts).
      detail: null,
    }));
    try {
      await db
        .insert(webhookDeliveries)
        .values(values)
        .onConflictDoUpdate({
          target: webhookDeliveries.foldKey,
          set: {
            count: sql`${webhookDeliveries.count} + excluded.count`,
            receivedAt: sql`greatest(${webhookDeliveries.receivedAt}, excluded.received_at)`,
          },
        });
    } catch (error) {
      const lost = batch.reduce((n, f) => n + f.count, 0);
      opts.log(`[webhook] could not log ${lost} folded rejected deliveries: ${safeErrorSummary(error)}`);
    }
  }

  // One fold write at a time; a flush asked for while another waits to start joins that one.
  function flushFolds(): Promise<void> {
    if (timer !== null) {
      clearTimeout(timer);
      timer = null;
    }
    if (waitingFlush) return waitingFlush;
    const next = lastFlush.then(() => {
      waitingFlush = null;
      return writeFolds();
    });
    waitingFlush = next;
    lastFlush = next;
    return next;
  }

  function fold(outcome: RejectedOutcome, httpStatus: number, source: string, addr: string | null, at: number): void {
    const key = foldKey(outcome, source, at);
    const existing = folds.get(key);
    if (existing) {
      existing.count += 1;
      existing.lastAt = Math.max(existing.lastAt, at);
    } else {
      const other = source === OTHER_SOURCES;
      folds.set(key, { foldKey: key, outcome, httpStatus, remoteAddr: other ? null : addr, other, count: 1, lastAt: at });
    }
    if (folds.size >= opts.flushAtFolds) {
      void flushFolds();
    } else if (timer === null) {
      timer = setTimeout(() => void flushFolds(), opts.flushMs);
      timer.unref?.();
    }
  }

  return {
    note(rejection) {
      try {
        const at = opts.now();
        const thisHour = Math.floor(at / HOUR_MS);
        if (thisHour !== hour) {
          hour = thisHour;
          seen.clear();
          sources.clear();
          rowsThisHour = 0;
        }
        const addr = rejection.remoteAddr === null ? null : rejection.remoteAddr.slice(0, MAX_ADDR_CHARS);
        let source = addr ?? "unknown";
        if (!sources.has(source)) {
          if (sources.size >= opts.maxSources) source = OTHER_SOURCES;
          else sources.add(source);
        }
        const tallyKey = `${rejection.outcome}|${source}`;
        const n = (seen.get(tallyKey) ?? 0) + 1;
        seen.set(tallyKey, n);
        if (n <= opts.rowsPerSourceHour && rowsThisHour < opts.rowsPerHour && rowQueue.length < opts.maxQueuedRows) {
          rowsThisHour += 1;
          // Never a body: nothing an unauthenticated caller sends is kept.
          rowQueue.push({ outcome: rejection.outcome, httpStatus: rejection.httpStatus, remoteAddr: addr, detail: rejection.detail, receivedAt: new Date(at) });
          pumpRows();
        } else {
          fold(rejection.outcome, rejection.httpStatus, source, addr, at);
        }
      } catch (error) {
        opts.log(`[webhook] could not note a rejected delivery: ${safeErrorSummary(error)}`);
      }
    },
    async flush() {
      if (writing > 0 || rowQueue.length > 0) await new Promise<void>((resolve) => rowsIdle.push(resolve));
      await flushFolds();
    },
  };
}

/** The process's rejection log for a database: one tally per process, whichever route bundle asks. */
export function rejectionLogFor(db: Db): RejectionLog {
  const logs = processSingleton("rejection-logs", () => new WeakMap<Db, RejectionLog>());
  let log = logs.get(db);
  if (!log) {
    log = createRejectionLog(db);
    logs.set(db, log);
  }
  return log;
}
