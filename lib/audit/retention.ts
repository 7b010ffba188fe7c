import "server-only";

import { and, inArray, lt } from "drizzle-orm";

import type { Db } from "@/lib/db/client";
import { auditLog } from "@/lib/db/schema";

/** Rows written for sign-in attempts that never got in are kept this long; what staff did is kept for ever. */
export const REFUSAL_RETENTION_DAYS = 90;

/** The retention job's part of the audit log: refused sign-ins older than REFUSAL_RETENTION_DAYS go. */
export async function pruneRefusedSignIns(db: Db, now = new Date()): Promise<number> {
  const before = new Date(now.getTime() - REFUSAL_RETENTION_DAYS * 24 * 60 * 60 * 1000);
  const gone = await db
    .delete(auditLog)
    .where(and(inArray(auditLog.action, ["auth.sign_in_failed", "auth.sign_in_throttled"]), lt(auditLog.at, before)))
    .returning({ id: auditLog.id });
  return gone.length;
}
