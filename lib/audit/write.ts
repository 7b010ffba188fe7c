import "server-only";

import { sql } from "drizzle-orm";

import type { Db } from "@/lib/db/client";
import { auditLog } from "@/lib/db/schema";
import { safeErrorSummary } from "@/lib/log/safe-error";

import type { AuditAction } from "./actions";

// The list of actions is lib/audit/actions.ts's, so the audit page's filter reads it without importing the writer.
export { AUDIT_ACTIONS, type AuditAction } from "./actions";

export interface AuditEntry {
  action: AuditAction;
  actor?: { id: string | null; email: string | null } | null;
  target?: string | null;
  detail?: Record<string, unknown>;
  ip?: string | null;
}

/** Who did what, when, from where. A failed audit write is logged, never fatal to the action. */
export async function writeAudit(db: Db, entry: AuditEntry): Promise<void> {
  try {
    await db.insert(auditLog).values({
      action: entry.action,
      actorId: entry.actor?.id ?? null,
      actorEmail: entry.actor?.email ?? null,
      target: entry.target ?? null,
      detail: entry.detail ?? null,
      ip: entry.ip ?? null,
    });
  } catch (error) {
    console.error(`[audit] could not record ${entry.action}: ${safeErrorSummary(error)}`);
  }
}

/** Refused sign-ins are folded per address into windows this long. */
export const REFUSAL_WINDOW_MS = 15 * 60 * 1000;

export interface RefusedSignIn {
  action: "auth.sign_in_throttled" | "auth.sign_in_failed";
  /** Why, in a few words ("throttled", "unknown e-mail"): part of the group, so different causes stay apart. */
  reason: string;
  ip: string;
  at?: Date;
}

/**
 * A refused sign-in that names no account of ours (throttled, or an unknown e-mail): one counted row per action,
 * reason, address and 15 minutes, with no e-mail kept, so a flood of attacker-chosen addresses costs one row per
 * source and window and never reaches the person filter. The unique group key makes it one upsert.
 */
export async function writeRefusedSignIn(db: Db, entry: RefusedSignIn): Promise<void> {
  const at = entry.at ?? new Date();
  const from = new Date(Math.floor(at.getTime() / REFUSAL_WINDOW_MS) * REFUSAL_WINDOW_MS);
  const groupKey = `${entry.action}|${entry.reason}|${entry.ip}|${from.toISOString()}`;
  try {
    await db
      .insert(auditLog)
      .values({
        at,
        action: entry.action,
        detail: { reason: entry.reason, windowFrom: from.toISOString(), windowTo: new Date(from.getTime() + REFUSAL_WINDOW_MS).toISOString() },
        ip: entry.ip,
        count: 1,
        groupKey,
      })
      .onConflictDoUpdate({ target: auditLog.groupKey, set: { count: sql`${auditLog.count} + 1`, at: sql`greatest(${auditLog.at}, excluded.at)` } });
  } catch (error) {
    console.error(`[audit] could not record ${entry.action}: ${safeErrorSummary(error)}`);
  }
}
