import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

import pg from "pg";

import { openDatabase, type Database } from "@/lib/db/client";

export interface DbTargetUnderTest {
  name: "pglite" | "postgres";
  /** A fresh, migrated database; `dispose` closes it and deletes what it made. */
  create(): Promise<{ database: Database; dispose(): Promise<void>; reopen(): Promise<Database> }>;
}

const pglite: DbTargetUnderTest = {
  name: "pglite",
  async create() {
    const dataDir = mkdtempSync(path.join(tmpdir(), "fundboard-test-"));
    const database = await openDatabase({ kind: "pglite", dataDir });
    let current = database;
    return {
      database,
      reopen: async () => {
        current = await openDatabase({ kind: "pglite", dataDir });
        return current;
      },
      dispose: async () => {
        await current.close().catch(() => undefined);
        rmSync(dataDir, { recursive: true, force: true });
      },
    };
  },
};

/** A throwaway database on the TEST_DATABASE_URL server, dropped afterwards. */
export async function createTempPostgres(baseUrl: string): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `fundboard_test_${randomBytes(6).toString("hex")}`;
  const admin = new pg.Client({ connectionString: baseUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(baseUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const c = new pg.Client({ connectionString: baseUrl });
      await c.connect();
      try {
        await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      } finally {
        await c.end();
      }
    },
  };
}

const postgres = (baseUrl: string): DbTargetUnderTest => ({
  name: "postgres",
  async create() {
    const temp = await createTempPostgres(baseUrl);
    const database = await openDatabase({ kind: "postgres", url: temp.url });
    let current = database;
    return {
      database,
      reopen: async () => {
        current = await openDatabase({ kind: "postgres", url: temp.url });
        return current;
      },
      dispose: async () => {
        await current.close().catch(() => undefined);
        await database.close().catch(() => undefined);
        await temp.drop();
      },
    };
  },
});

/** PGlite always; Postgres too when TEST_DATABASE_URL is set (CI sets it). */
export function dbTargets(): DbTargetUnderTest[] {
  const url = process.env.TEST_DATABASE_URL;
  return url ? [pglite, postgres(url)] : [pglite];
}
