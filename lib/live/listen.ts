import "server-only";

import type { PGlite } from "@electric-sql/pglite";
import pg from "pg";

import type { Database } from "@/lib/db/client";

import { deliverLocally } from "./bus";
import { LIVE_CHANNEL, parsePayload } from "./payloads";

// Each instance's one ear for live events (docs/architecture.md "Live updates"): whatever a committed transaction
// announced (lib/live/notify.ts), on this instance or another, reaches this instance's browsers from here.

function deliver(payload: string, log: (line: string) => void): void {
  try {
    for (const event of parsePayload(payload)) deliverLocally(event);
  } catch {
    log("[live] ignored an unreadable notification");
  }
}

export interface LiveListener {
  /** Resolves once LISTEN is in place (tests and the start-up wait for it). */
  ready: Promise<void>;
  stop(): Promise<void>;
}

/** PGlite is one process: its notifications arrive in-process, at each commit. */
export function listenPglite(pglite: PGlite, log: (line: string) => void = console.log): LiveListener {
  const unlisten = pglite.listen(LIVE_CHANNEL, (payload) => deliver(payload, log));
  return {
    ready: unlisten.then(() => undefined),
    async stop() {
      await (await unlisten)().catch(() => undefined);
    },
  };
}

/**
 * On Postgres a connection of its own LISTENs, and reconnects with backoff. While it is down this instance's
 * browsers hear nothing new; each stream's reconnect re-reads what it shows (lib/client/live).
 */
export function listenPostgres(connectionString: string, log: (line: string) => void = console.log): LiveListener {
  let client: pg.Client | null = null;
  let stopped = false;
  let attempt = 0;
  let markReady: () => void = () => {};
  const ready = new Promise<void>((resolve) => (markReady = resolve));

  const connect = async () => {
    if (stopped) return;
    const c = new pg.Client({ connectionString });
    client = c;
    c.on("notification", (message) => {
      if (message.channel === LIVE_CHANNEL && message.payload) deliver(message.payload, log);
    });
    const retry = () => {
      if (stopped) return;
      const delay = Math.min(30_000, 500 * 2 ** attempt);
      attempt += 1;
      log(`[live] LISTEN connection lost; retrying in ${delay} ms`);
      setTimeout(() => void connect(), delay).unref();
    };
    c.on("error", () => c.end().catch(() => undefined));
    c.on("end", retry);
    try {
      await c.connect();
      await c.query(`LISTEN ${LIVE_CHANNEL}`);
      attempt = 0;
      markReady();
    } catch {
      await c.end().catch(() => undefined);
    }
  };
  void connect();

  return {
    ready,
    async stop() {
      stopped = true;
      await client?.end().catch(() => undefined);
    },
  };
}

/** The listener this database needs: in-process on PGlite, a LISTEN connection on Postgres. */
export function startLiveListener(database: Database, postgresUrl: string | null, log: (line: string) => void = console.log): LiveListener {
  if (database.pglite) return listenPglite(database.pglite, log);
  if (!postgresUrl) throw new Error("a Postgres database without its URL cannot be listened to");
  return listenPostgres(postgresUrl, log);
}
