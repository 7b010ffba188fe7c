import "server-only";

import pg from "pg";

// One number for "the reconciler" in pg_advisory_lock's key space.
export const RECONCILER_LOCK_KEY = 0x66_62_72_63; // "fbrc"

export interface Leadership {
  /** True while this instance holds the lock; otherwise tries to take it (at most once per second). */
  isLeader(): Promise<boolean>;
  stop(): Promise<void>;
}

/**
 * A session-level advisory lock on a dedicated connection: only one instance reconciles. If that
 * instance dies, its connection closes, Postgres releases the lock, and the next instance to ask takes it.
 */
export function advisoryLeadership(connectionString: string, key = RECONCILER_LOCK_KEY): Leadership {
  let client: pg.Client | null = null;
  let held = false;
  let lastTry = 0;
  let stopped = false;

  const drop = () => {
    held = false;
    const c = client;
    client = null;
    c?.end().catch(() => undefined);
  };

  return {
    async isLeader() {
      if (stopped) return false;
      if (held && client) return true;
      if (Date.now() - lastTry < 1_000) return false;
      lastTry = Date.now();
      try {
        if (!client) {
          const c = new pg.Client({ connectionString });
          c.on("error", drop);
          c.on("end", () => {
            if (client === c) {
              held = false;
              client = null;
            }
          });
          await c.connect();
          client = c;
        }
        const result = await client.query<{ ok: boolean }>("SELECT pg_try_advisory_lock($1) AS ok", [key]);
        held = result.rows[0]?.ok === true;
        return held;
      } catch {
        drop();
        return false;
      }
    },
    async stop() {
      stopped = true;
      if (client && held) await client.query("SELECT pg_advisory_unlock($1)", [key]).catch(() => undefined);
      drop();
    },
  };
}
