import "server-only";

import type { PGlite } from "@electric-sql/pglite";
import type PgBoss from "pg-boss";

/**
 * pg-boss on the embedded database: statements without parameters hold several commands (its
 * migrations and maintenance), which only PGlite's `exec` runs; the rest go to `query`.
 */
export function pgliteAdapter(pglite: PGlite): PgBoss.Db {
  return {
    async executeSql(text: string, values?: unknown[]) {
      if (!values || values.length === 0) {
        const results = await pglite.exec(text);
        return { rows: results.at(-1)?.rows ?? [] };
      }
      const result = await pglite.query(text, values);
      return { rows: result.rows };
    },
  };
}
