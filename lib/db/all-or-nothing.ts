import "server-only";

import type { Db } from "./client";

// A change spread over two domains (a payment and its request, docs/architecture.md "A webhook delivery") is made in
// one transaction the caller opens, each domain writing its own rows in it: no domain calls back into another.

const NOTHING = Symbol("nothing");

/** Postgres' codes for "another transaction got there first": a unique row taken, a serialization failure, a deadlock. */
const LOST_A_RACE = new Set(["23505", "40001", "40P01"]);

/** True when `error` (or what it wraps: drizzle puts the driver's error in `cause`) is one of LOST_A_RACE. */
function lostARace(error: unknown): boolean {
  let current: unknown = error;
  for (let depth = 0; depth < 4 && typeof current === "object" && current !== null; depth++) {
    const { code, cause } = current as { code?: unknown; cause?: unknown };
    if (typeof code === "string" && LOST_A_RACE.has(code)) return true;
    current = cause;
  }
  return false;
}

/**
 * Runs `change` in one transaction. It answers false when `change` does (a row it meant to move had changed
 * meanwhile) or when the database says another transaction got there first; then nothing it wrote is kept. Any other
 * failure (the database gone, a bug) is thrown as it is, never passed off as "changed meanwhile".
 */
export async function allOrNothing(db: Db, change: (tx: Db) => Promise<boolean>): Promise<boolean> {
  return db
    .transaction(async (tx) => {
      if (!(await change(tx))) throw NOTHING;
      return true;
    })
    .catch((error: unknown) => {
      if (error === NOTHING || lostARace(error)) return false;
      throw error;
    });
}
