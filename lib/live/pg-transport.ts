import "server-only";

import pg from "pg";

import { deliverLocally, setTransport, type LiveEvent } from "./bus";

export const LIVE_CHANNEL = "fundboard_live";

export interface PgTransport {
  stop(): Promise<void>;
  /** Resolves once LISTEN is in place (tests wait for it). */
  ready: Promise<void>;
}

/**
 * On Postgres every instance LISTENs, and publish() becomes NOTIFY, so a browser connected to
 * any instance hears events that happened on any other (DESIGN §6). The listener reconnects
 * with backoff; while it is down, events still reach this instance's own browsers.
 */
export function startPgTransport(pool: pg.Pool, connectionString: string, log: (line: string) => void = console.log): PgTransport {
  let client: pg.Client | null = null;
  let stopped = false;
  let attempt = 0;
  let listening = false;
  let markReady: () => void = () => {};
  const ready = new Promise<void>((resolve) => (markReady = resolve));

  const connect = async () => {
    if (stopped) return;
    const c = new pg.Client({ connectionString });
    client = c;
    c.on("notification", (message) => {
      if (message.channel !== LIVE_CHANNEL || !message.payload) return;
      try {
        deliverLocally(JSON.parse(message.payload) as LiveEvent);
      } catch {
        log("[live] ignored an unreadable notification");
      }
    });
    const retry = () => {
      listening = false;
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
      listening = true;
      markReady();
    } catch {
      await c.end().catch(() => undefined);
    }
  };

  setTransport((event) => {
    const payload = JSON.stringify(event);
    pool.query("SELECT pg_notify($1, $2)", [LIVE_CHANNEL, payload]).catch((error: Error) => {
      log(`[live] NOTIFY failed (${error.message}); delivering on this instance only`);
      deliverLocally(event);
    });
    // Without our own LISTEN the notification would never come back to this instance's browsers.
    if (!listening) deliverLocally(event);
  });
  void connect();

  return {
    ready,
    async stop() {
      stopped = true;
      setTransport(null);
      await client?.end().catch(() => undefined);
    },
  };
}
