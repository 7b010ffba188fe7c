import "server-only";

import pg from "pg";

import { deliverLocally, setTransport, type LiveEvent } from "./bus";
import { safeErrorSummary } from "@/lib/log/safe-error";

export const LIVE_CHANNEL = "fundboard_live";

// Postgres refuses NOTIFY payloads of 8000 bytes or more.
const MAX_PAYLOAD_BYTES = 7_000;

/** Events as NOTIFY payloads: JSON arrays, each under the size limit. */
export function toPayloads(events: readonly LiveEvent[]): string[] {
  const payloads: string[] = [];
  let current: string[] = [];
  let size = 2;
  for (const event of events) {
    const text = JSON.stringify(event);
    if (current.length > 0 && size + text.length + 1 > MAX_PAYLOAD_BYTES) {
      payloads.push(`[${current.join(",")}]`);
      current = [];
      size = 2;
    }
    current.push(text);
    size += text.length + 1;
  }
  if (current.length > 0) payloads.push(`[${current.join(",")}]`);
  return payloads;
}

/** A payload from any instance: an array of events, or one event (older instances during a rolling deploy). */
export function parsePayload(payload: string): LiveEvent[] {
  const value = JSON.parse(payload) as LiveEvent | LiveEvent[];
  return Array.isArray(value) ? value : [value];
}

export interface PgTransport {
  stop(): Promise<void>;
  /** Resolves once LISTEN is in place (tests wait for it). */
  ready: Promise<void>;
}

/**
 * On Postgres every instance LISTENs, and publish() becomes NOTIFY, so a browser connected to
 * any instance hears events that happened on any other (docs/architecture.md). The listener reconnects
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
        for (const event of parsePayload(message.payload)) deliverLocally(event);
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

  // Events wait while a NOTIFY is on its way and then go out together, in order: a burst of webhooks
  // costs a NOTIFY per round trip, not one per event. Repeats of a payload-free event are sent once.
  let batch: LiveEvent[] = [];
  let inFlight = false;
  // The LISTEN connection sends too, so NOTIFYs never queue for a pool slot behind deliveries.
  const notify = (payload: string) => (listening && client ? client : pool).query("SELECT pg_notify($1, $2)", [LIVE_CHANNEL, payload]);
  const sendBatch = async (events: LiveEvent[]) => {
    for (const payload of toPayloads(events)) {
      try {
        await notify(payload);
      } catch (error) {
        log(`[live] NOTIFY failed (${safeErrorSummary(error)}); delivering on this instance only`);
        for (const event of parsePayload(payload)) deliverLocally(event);
      }
    }
  };
  const flush = () => {
    if (inFlight || batch.length === 0) return;
    const events = batch;
    batch = [];
    inFlight = true;
    void sendBatch(events).finally(() => {
      inFlight = false;
      flush();
    });
  };
  setTransport((event) => {
    if (!inFlight && batch.length === 0) setImmediate(flush);
    if (!(event.type === "balance.changed" && batch.some((e) => e.type === "balance.changed"))) batch.push(event);
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
