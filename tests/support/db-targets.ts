import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

import { afterAll, afterEach, beforeAll, beforeEach, inject } from "vitest";

import { openDatabase, type Database } from "@/lib/db/client";
import { startLiveListener, type LiveListener } from "@/lib/live/listen";

import { copyPgliteTemplate, createTempPostgres } from "./db-template";

export { createTempPostgres };

export interface DbTargetUnderTest {
  name: "pglite" | "postgres";
  /** A fresh, migrated database; `dispose` closes it and deletes what it made. */
  create(): Promise<{ database: Database; url: string | null; dispose(): Promise<void>; reopen(): Promise<Database> }>;
}

// The run's migrated templates (vitest.config.ts's global setup), or "" where none was made: then each database
// is made and migrated from nothing, as the app does on a first start.
const template = (key: "pgliteTemplate" | "postgresTemplate"): string => inject(key) ?? "";

const pglite: DbTargetUnderTest = {
  name: "pglite",
  async create() {
    const dataDir = mkdtempSync(path.join(tmpdir(), "fundboard-test-"));
    copyPgliteTemplate(template("pgliteTemplate"), dataDir);
    const database = await openDatabase({ kind: "pglite", dataDir });
    let current = database;
    return {
      database,
      url: null,
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

const postgres = (baseUrl: string): DbTargetUnderTest => ({
  name: "postgres",
  async create() {
    const temp = await createTempPostgres(baseUrl, template("postgresTemplate"));
    const database = await openDatabase({ kind: "postgres", url: temp.url });
    let current = database;
    return {
      database,
      url: temp.url,
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

/** The database `useTestDatabase` gives a describe block; `reopen` opens another connection to the same data. */
export interface TestDatabase extends Database {
  reopen(): Promise<Database>;
}

// One helper so no test file repeats the create/dispose hooks; the returned Database reads whichever one the hooks opened.
// Call it first in a describe block: vitest's default hook order ("stack") then opens the database before the
// block's own setup and closes it after the block's own teardown (a job engine stops before its database).
// `live`: this process hears the database's committed live events (lib/live/listen.ts), as a dashboard does.
export function useTestDatabase(target: DbTargetUnderTest, { perTest = false, live = false }: { perTest?: boolean; live?: boolean } = {}): TestDatabase {
  let opened: Awaited<ReturnType<DbTargetUnderTest["create"]>> | null = null;
  let listener: LiveListener | null = null;
  const open = async () => {
    opened = await target.create();
    if (live) {
      listener = startLiveListener(opened.database, opened.url, () => undefined);
      await listener.ready;
    }
  };
  const dispose = async () => {
    const closing = opened;
    opened = null;
    await listener?.stop();
    listener = null;
    await closing?.dispose();
  };
  if (perTest) {
    beforeEach(open);
    afterEach(dispose);
  } else {
    beforeAll(open);
    afterAll(dispose);
  }
  const current = () => {
    if (!opened) throw new Error(`the ${target.name} test database is open only inside its tests and hooks`);
    return opened;
  };
  return {
    get kind() {
      return current().database.kind;
    },
    get db() {
      return current().database.db;
    },
    get pool() {
      return current().database.pool;
    },
    get pglite() {
      return current().database.pglite;
    },
    close: () => current().database.close(),
    reopen: () => current().reopen(),
  };
}
