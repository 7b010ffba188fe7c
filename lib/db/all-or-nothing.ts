import "server-only";

import type { Db } from "./client";

// A change spread over two domains (a payment and its request, docs/architecture.md "A webhook delivery") is made in
// one transaction the caller opens, each domain writing its own rows in it: no domain calls back into another.

const NOTHING = Symbol("nothing");

/**
 * Runs `change` in one transaction. It answers false (or throws) when a row it meant to move had changed meanwhile;
 * then nothing it wrote is kept and the answer is false.
 */
export async function allOrNothing(db: Db, change: (tx: Db) => Promise<boolean>): Promise<boolean> {
  return db
    .transaction(async (tx) => {
      if (!(await change(tx))) throw NOTHING;
      return true;
    })
    .catch(() => false);
}
