import "server-only";

import { getConfig } from "@/lib/config";
import { dropProcessSingleton, peekProcessSingleton, processSingleton } from "@/lib/util/process-singleton";

import { openDatabase, type Database } from "./client";

export type { Database, Db } from "./client";
export * as tables from "./schema";

/** The process's database, opened and migrated once (instrumentation.ts calls this at start). */
export function getDatabase(): Promise<Database> {
  return processSingleton("database", () => {
    const pending = openDatabase(getConfig().database);
    // A failed open is retried on the next call rather than cached forever.
    pending.catch(() => {
      if (peekProcessSingleton("database") === pending) dropProcessSingleton("database");
    });
    return pending;
  });
}

export async function getDb() {
  return (await getDatabase()).db;
}
