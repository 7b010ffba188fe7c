import "server-only";

import { mkdirSync } from "node:fs";
import path from "node:path";

import { PGlite } from "@electric-sql/pglite";
import type { SQL } from "drizzle-orm";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import { drizzle as drizzlePg } from "drizzle-orm/node-postgres";
import { migrate as migratePg } from "drizzle-orm/node-postgres/migrator";
import pg from "pg";

import { acquireDataDirLock, type DataDirLock } from "./lock";
import * as schema from "./schema";
import { withTurns } from "./turns";

export type Schema = typeof schema;
export type Db = PgDatabase<PgQueryResultHKT, Schema>;

export type DbTarget = { kind: "pglite"; dataDir: string } | { kind: "pglite-memory" } | { kind: "postgres"; url: string };

export interface Database {
  kind: "pglite" | "postgres";
  db: Db;
  /** The Postgres pool (for LISTEN/NOTIFY and advisory locks); null on PGlite. */
  pool: pg.Pool | null;
  pglite: PGlite | null;
  close(): Promise<void>;
}

// Statically scoped so the bundler traces only the migrations folder.
export const MIGRATIONS_DIR = path.join(process.cwd(), "drizzle");

/**
 * The embedded database's buffer cache lives in the server's own memory and never shrinks (WebAssembly memory):
 * 64 MB instead of Postgres's 128 MB lowers the ceiling six exports of a year reach (docs/decisions.md, "The embedded database's buffer cache").
 */
const PGLITE_START = [...PGlite.defaultStartParams, "-c", "shared_buffers=64MB"];

/** Opens and migrates a database. On PGlite in a folder, holds that folder's lock until close(). */
export async function openDatabase(target: DbTarget, opts: { migrate?: boolean; poolSize?: number } = {}): Promise<Database> {
  const migrate = opts.migrate ?? true;
  if (target.kind === "postgres") {
    const pool = new pg.Pool({ connectionString: target.url, max: opts.poolSize ?? 10, connectionTimeoutMillis: 10_000 });
    // A dropped idle connection must not crash the server; the pool replaces it.
    pool.on("error", (error) => console.error(`[db] idle Postgres connection failed: ${error.message}`));
    const db = drizzlePg(pool, { schema }) as unknown as Db;
    try {
      if (migrate) await migratePg(drizzlePg(pool, { schema }), { migrationsFolder: MIGRATIONS_DIR });
    } catch (error) {
      await pool.end();
      throw error;
    }
    return { kind: "postgres", db, pool, pglite: null, close: () => pool.end() };
  }

  let lock: DataDirLock | null = null;
  let client: PGlite;
  if (target.kind === "pglite") {
    lock = acquireDataDirLock(target.dataDir);
    const pgdata = path.join(target.dataDir, "pgdata");
    mkdirSync(pgdata, { recursive: true });
    client = withTurns(new PGlite(pgdata, { startParams: PGLITE_START }));
  } else {
    client = withTurns(new PGlite({ startParams: PGLITE_START }));
  }
  try {
    await client.waitReady;
    const raw = drizzlePglite(client, { schema });
    if (migrate) await migratePglite(raw, { migrationsFolder: MIGRATIONS_DIR });
    return {
      kind: "pglite",
      db: raw as unknown as Db,
      pool: null,
      pglite: client,
      close: async () => {
        await client.close();
        lock?.release();
      },
    };
  } catch (error) {
    await client.close().catch(() => undefined);
    lock?.release();
    throw error;
  }
}

/** Rows of a raw query: both drivers answer `{ rows }`, which the shared Db type cannot express. */
export async function queryRows<T>(db: Db, query: SQL): Promise<T[]> {
  const result = (await db.execute(query)) as unknown as { rows: T[] };
  return result.rows;
}
