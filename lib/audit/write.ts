import "server-only";

import type { Db } from "@/lib/db/client";
import { auditLog } from "@/lib/db/schema";
import { safeErrorSummary } from "@/lib/log/safe-error";

/** Every action the log records; the audit page offers these as its filter. */
export const AUDIT_ACTIONS = [
  "auth.sign_in",
  "auth.sign_in_failed",
  "auth.sign_in_throttled",
  "auth.sign_out",
  "account.password_changed",
  "account.two_step_enabled",
  "account.two_step_disabled",
  "account.recovery_codes_renewed",
  "account.session_ended",
  "account.other_sessions_ended",
  "staff.created",
  "staff.role_changed",
  "staff.disabled",
  "staff.enabled",
  "staff.password_reset",
  "staff.two_step_reset",
  "settings.require_2fa_changed",
  "request.created",
  "payment.reverify",
  "campaign.uploaded",
  "campaign.started",
  "campaign.paused",
  "campaign.resumed",
  "campaign.cancelled",
] as const;

export type AuditAction = (typeof AUDIT_ACTIONS)[number];

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
