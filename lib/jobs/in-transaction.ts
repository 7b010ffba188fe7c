import "server-only";

import type PgBoss from "pg-boss";
import { sql, type SQL } from "drizzle-orm";

import { queryRows, type Db } from "@/lib/db/client";

// pg-boss run on a transaction of ours (its `db` option): jobs queued in the same commit as the rows that call for
// them, and on the embedded database a chain of statements that waits its turn once, not once each
// (docs/architecture.md, "Jobs").

/** pg-boss's statement with its `$n` placeholders as parameters of ours, in order (a value is never spread as a list). */
export function bossStatement(text: string, values: readonly unknown[]): SQL {
  const parts = text.split(/\$(\d+)/);
  return sql.join(parts.map((part, i) => (i % 2 === 0 ? sql.raw(part) : sql`${sql.param(values[Number(part) - 1])}`)));
}

/** pg-boss's database on this transaction (or database): `boss.insert(jobs, { db: jobsDb(tx) })`. */
export function jobsDb(db: Db): PgBoss.Db {
  return {
    executeSql: async (text: string, values?: unknown[]) => ({ rows: await queryRows<unknown>(db, bossStatement(text, values ?? [])) }),
  };
}
