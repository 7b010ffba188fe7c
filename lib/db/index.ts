import "server-only";

import { getConfig } from "@/lib/config";

import { openDatabase, type Database } from "./client";

export type { Database, Db } from "./client";
export * as tables from "./schema";

const KEY = Symbol.for("fundboard.database");
type Holder = { [KEY]?: Promise<Database> };

/** The process's database, opened and migrated once (instrumentation.ts calls this at start). */
export function getDatabase(): Promise<Database> {
  const holder = globalThis as Holder;
  let pending = holder[KEY];
  if (!pending) {
    const { database } = getConfig();
    pending = openDatabase(database);
    // A failed open is retried on the next call rather than cached forever.
    pending.catch(() => {
      if (holder[KEY] === pending) delete holder[KEY];
    });
    holder[KEY] = pending;
  }
  return pending;
}

export async function getDb() {
  return (await getDatabase()).db;
}
