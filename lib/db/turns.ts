import "server-only";

import type { PGlite, Transaction } from "@electric-sql/pglite";

// The embedded database runs each statement on the server's own thread and answers it in a microtask, so a few
// busy job chains can keep the event loop from reading any socket (an SMTP reply, an HTTP request) for seconds.
// Every statement waits here once its slice is used up: all of them for the same one turn of the event loop, so no
// chain carries on in microtasks while the others wait (docs/decisions.md, "The embedded database takes turns").

/** How long statements may run back to back before the event loop gets a turn. */
export const SLICE_MS = 5;

export interface Turns {
  /** Resolves at once within a slice; after it, once the event loop has turned (the same promise for every caller). */
  take(): Promise<void> | null;
}

export function createTurns(sliceMs = SLICE_MS, now: () => number = () => performance.now()): Turns {
  let sliceStart = now();
  let pending: Promise<void> | null = null;
  return {
    take() {
      if (pending) return pending;
      if (now() - sliceStart < sliceMs) return null;
      pending = new Promise<void>((resolve) =>
        setImmediate(() => {
          pending = null;
          sliceStart = now();
          resolve();
        }),
      );
      return pending;
    },
  };
}

type Runner = Pick<PGlite | Transaction, "query" | "exec">;

type Call = (...args: unknown[]) => Promise<unknown>;

/** Runs each call of `target`'s query and exec through `gate` (which waits for the turn, then runs it). */
function gated<T extends Runner>(target: T, gate: <R>(run: () => Promise<R>) => Promise<R>): T {
  const query = target.query.bind(target) as Call;
  const exec = target.exec.bind(target) as Call;
  target.query = ((...args: unknown[]) => gate(() => query(...args))) as T["query"];
  target.exec = ((...args: unknown[]) => gate(() => exec(...args))) as T["exec"];
  return target;
}

/**
 * Makes every statement on `client` (and in its transactions) take its turn with the event loop. Statements and
 * transactions are queued here, one at a time, and the turn is taken as each starts, not as it is queued: queued
 * first, a dozen statements of as many job chains would each run after the turn was due.
 */
export function withTurns(client: PGlite, turns: Turns = createTurns()): PGlite {
  let last: Promise<unknown> = Promise.resolve();
  const inTurn = async <R>(run: () => Promise<R>): Promise<R> => {
    await turns.take();
    return run();
  };
  const queued = <R>(run: () => Promise<R>): Promise<R> => {
    const result = last.then(() => inTurn(run));
    last = result.catch(() => undefined);
    return result;
  };
  const transaction = client.transaction.bind(client);
  const close = client.close.bind(client);
  gated(client, queued);
  // Closing waits for what was queued before it, as PGlite's own queue would have.
  client.close = () => queued(close);
  // A transaction holds the queue until it ends; its own statements take their turns inside it.
  client.transaction = (<T>(callback: (tx: Transaction) => Promise<T>) =>
    queued(() => transaction((tx) => callback(gated(tx, inTurn))))) as PGlite["transaction"];
  return client;
}
