import "server-only";

import { eq } from "drizzle-orm";

import { DEMO_ADMIN } from "@/lib/auth/demo";
import type { AppConfig } from "@/lib/config";

import type { Db } from "./client";
import { claimMeta } from "./meta";
import { staff } from "./schema";

export type DatabaseMode = "sandbox" | "live";

/** Starting a database in the other mode: the message says what it holds and what to do. */
export class DatabaseModeError extends Error {
  constructor(
    readonly recorded: DatabaseMode,
    readonly wanted: DatabaseMode,
    where: string,
  ) {
    super(
      recorded === "sandbox"
        ? `Fundboard cannot start: ${where} was first used in sandbox mode. It holds the sandbox's demo admin (whose password is public) and simulated payments, which must never appear in a live dashboard.\n` +
            "To go live, point DATABASE_URL (or DATA_DIR) at a fresh, empty database. To keep using the sandbox, unset SERVICE_BASE_URL."
        : `Fundboard cannot start: ${where} was first used with a live service (SERVICE_BASE_URL was set). It holds real staff accounts and payments; opening it in sandbox mode would accept deliveries signed with the public development key.\n` +
            "Set SERVICE_BASE_URL, SERVICE_VERIFY_BASE_URL, SERVICE_API_KEY and AUTH_SECRET again (a variable lost in the deploy?), or point DATABASE_URL (or DATA_DIR) at a fresh database for the sandbox.",
    );
    this.name = "DatabaseModeError";
  }
}

/** Where the database is, for the message: the folder, or the Postgres host and database without credentials. */
export function describeDatabase(database: AppConfig["database"]): string {
  if (database.kind === "pglite") return `the embedded database in ${database.dataDir} (DATA_DIR)`;
  try {
    const url = new URL(database.url);
    return `the Postgres database ${url.pathname.slice(1) || "(default)"} on ${url.hostname} (DATABASE_URL)`;
  } catch {
    return "the Postgres database at DATABASE_URL";
  }
}

/**
 * the README's Configuration: a database remembers the mode that first used it. The primary key makes the first
 * start's claim the only one; a database from before this check that holds the demo admin counts
 * as a sandbox one. Throws DatabaseModeError when `wanted` is not the recorded mode.
 */
export async function claimDatabaseMode(db: Db, wanted: DatabaseMode, where: string): Promise<void> {
  const [demo] = await db.select({ id: staff.id }).from(staff).where(eq(staff.email, DEMO_ADMIN.email)).limit(1);
  const firstClaim: DatabaseMode = demo ? "sandbox" : wanted;
  const recorded: DatabaseMode = (await claimMeta(db, "mode", firstClaim)) === "live" ? "live" : "sandbox";
  if (recorded !== wanted) throw new DatabaseModeError(recorded, wanted, where);
}
