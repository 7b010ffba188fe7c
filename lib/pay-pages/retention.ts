import "server-only";

import { and, lt, ne } from "drizzle-orm";

import type { Db } from "@/lib/db/client";
import { payPageSubmissions } from "@/lib/db/schema";

// What pay pages keep of a payer's address (docs/decisions.md "Pay pages"): its keyed hash, only as long as the
// address limits count it (24 hours), with a day's margin; the submission itself stays for the page's counts.
const ADDRESS_DAYS = 2;

/** Forgets the address hashes of submissions older than 2 days; answers how many. */
export async function forgetPayAddresses(db: Db, now = new Date()): Promise<number> {
  const forgotten = await db
    .update(payPageSubmissions)
    .set({ addressKey: "" })
    .where(and(lt(payPageSubmissions.createdAt, new Date(now.getTime() - ADDRESS_DAYS * 86_400_000)), ne(payPageSubmissions.addressKey, "")))
    .returning({ id: payPageSubmissions.id });
  return forgotten.length;
}
