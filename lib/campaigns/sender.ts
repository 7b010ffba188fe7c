import "server-only";

import { and, eq, sql } from "drizzle-orm";

import { writeAudit, type AuditEntry } from "@/lib/audit/write";
import { queryRows, type Db } from "@/lib/db/client";
import { campaigns } from "@/lib/db/schema";
import { announce } from "@/lib/live/notify";

// A campaign sends under its sender of record only while that account may send: once it is disabled,
// demoted to viewer or gone, the campaign pauses with the reason shown, and whoever resumes it sends.

export type SenderLoss = "disabled" | "demoted" | "missing";

interface Unfit {
  id: string;
  sender_id: string | null;
  sender_name: string | null;
  disabled: boolean | null;
  role: string | null;
}

export function pausedReasonText(loss: SenderLoss, senderName: string | null): string {
  const who = senderName ?? "The account sending it";
  const why =
    loss === "disabled"
      ? `${who}, who was sending it, was disabled.`
      : loss === "demoted"
        ? `${who}, who was sending it, is now a viewer and cannot send.`
        : "The account sending it no longer exists.";
  return `Paused: ${why} An admin or operator can resume it; the remaining rows are then sent under their name.`;
}

/**
 * Pauses every sending campaign whose sender of record can no longer send, with the reason, audited
 * (the admin whose change caused it as the actor, or none when the send job notices), and announced.
 */
export async function pauseCampaignsWithoutSender(db: Db, by: { actor?: AuditEntry["actor"]; ip?: string | null } = {}): Promise<string[]> {
  const unfit = await queryRows<Unfit>(
    db,
    sql`select c.id, c.sender_id, s.name as sender_name, s.disabled, s.role
        from campaigns c left join staff s on s.id = c.sender_id
        where c.status = 'sending' and (s.id is null or s.disabled or s.role not in ('admin', 'operator'))`,
  );
  const paused: string[] = [];
  for (const c of unfit) {
    const loss: SenderLoss = c.disabled === null ? "missing" : c.disabled ? "disabled" : "demoted";
    const reason = pausedReasonText(loss, c.sender_name);
    // Only if it is still sending under the same sender: a resume in between wins. Paused, audited and told together.
    const moved = await db.transaction(async (tx) => {
      const [row] = await tx
        .update(campaigns)
        .set({ status: "paused", pausedReason: reason, updatedAt: new Date() })
        .where(
          and(
            eq(campaigns.id, c.id),
            eq(campaigns.status, "sending"),
            c.sender_id === null ? sql`${campaigns.senderId} is null` : eq(campaigns.senderId, c.sender_id),
          ),
        )
        .returning({ id: campaigns.id });
      if (!row) return false;
      await writeAudit(tx, {
        action: "campaign.paused",
        actor: by.actor ?? null,
        target: c.id,
        detail: { automatic: true, reason: `sender_${loss}`, senderId: c.sender_id },
        ip: by.ip ?? null,
      });
      await announce(tx, { type: "campaign.progress", campaignId: c.id });
      return true;
    });
    if (!moved) continue;
    paused.push(c.id);
  }
  return paused;
}
