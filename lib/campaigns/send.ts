import "server-only";

import type { Db } from "@/lib/db/client";
import { createKeyedFundRequest } from "@/lib/requests/create";
import type { RequestDeps } from "@/lib/requests/deps";
import { campaignRowKey } from "@/lib/requests/keys";
import { findRequestByIdempotencyKey } from "@/lib/requests/repo";
import { newRequestSchema } from "@/lib/client/requests/schemas";
import { ServiceError } from "@/lib/service/errors";

import { getConfig } from "@/lib/config";
import { linksAwaitingConfirmation } from "@/lib/payments/awaiting";
import { doNotAskRefusal } from "@/lib/payers/do-not-ask";
import { LEFT_OUT_WORDS } from "@/lib/client/campaigns/view";
import { leftOutAtSend } from "./ask-again";
import { claimNextRow, hasClaims, markClaimFailed, markClaimLeftOut, markClaimSent, releaseClaim, takeStaleClaim, type ClaimedRow } from "./claims";
import { finishDrainedCampaigns } from "./repo";
import { pauseCampaignsWithoutSender } from "./sender";

export { campaignRowKey };

export interface SendPassResult {
  sent: number;
  /** More queued rows wait; `waitMs` until the next pass may send (the budget's or an in-flight send's). */
  more: boolean;
  waitMs: number;
}

/**
 * A claim whose process died: with a request recorded under its key, the row is sent with it (the
 * person may have been asked; a request still `sending` is settled by the requests sweep and the row
 * follows it); with none, nothing reached the service and the row is released.
 */
async function settleStaleClaims(db: Db): Promise<void> {
  for (let stale = await takeStaleClaim(db); stale; stale = await takeStaleClaim(db)) {
    const record = await findRequestByIdempotencyKey(db, campaignRowKey(stale.campaignId, stale.row));
    if (record) await markClaimSent(db, stale.id, record.id);
    else await releaseClaim(db, stale.id, stale.campaignId);
  }
}

/** The call of one claimed row; its row is sent with its request afterwards, whatever the campaign's state. */
async function sendClaimed(deps: RequestDeps, next: ClaimedRow): Promise<"sent" | "failed" | "left_out" | "in_flight"> {
  const { db } = deps;
  const key = campaignRowKey(next.campaignId, next.row);
  const parsed = newRequestSchema.omit({ idempotencyKey: true }).safeParse({ tag: next.tag, amount: next.amount, description: next.description });
  // A row the form would refuse (checked at upload; this guards any other way in) fails with why, never jams the queue.
  if (!parsed.success) {
    await markClaimFailed(db, next.id, `Not sent: ${parsed.error.issues[0]?.message ?? "the row is not a valid request"}`);
    return "failed";
  }
  const fields = { ...parsed.data, businessReference: next.businessReference };
  // Marked do-not-ask since the upload: the row fails with who marked it, and nothing is sent.
  const refusal = await doNotAskRefusal(db, fields.tag, getConfig().timeZone);
  if (refusal) {
    await markClaimFailed(db, next.id, refusal);
    return "failed";
  }
  // A round's draft may have waited: the person may have paid, declined again or been asked enough since.
  const reason = next.familyId ? await leftOutAtSend(db, next.familyId, fields.tag, next.cooldownOverride) : null;
  if (reason) {
    await markClaimLeftOut(db, next.id, reason, `Left out when it was to be sent: ${LEFT_OUT_WORDS[reason]}`);
    return "left_out";
  }
  const outcome = await createKeyedFundRequest(deps, fields, key, { id: next.senderId, name: next.senderName });
  if (outcome.kind === "in_flight") return "in_flight";
  if (outcome.kind === "key_reused") {
    await markClaimFailed(db, next.id, "Another request already used this row's key.");
    return "failed";
  }
  const record = await findRequestByIdempotencyKey(db, key);
  if (!record) throw new Error("campaign row's request vanished after its send");
  await markClaimSent(db, next.id, record.id);
  return "sent";
}

/**
 * One pass of the campaign-send job (docs/architecture.md, "Campaigns"): campaigns whose sender of record
 * can no longer send are paused first; then queued rows of sending campaigns, oldest campaign first, are
 * each claimed and sent through the form's own code path, until `maxRows` or the background budget says
 * wait. Pause and cancel take effect at the next claim; a claimed row is always finished.
 */
export async function sendCampaignRows(deps: RequestDeps, maxRows: number, signal?: AbortSignal): Promise<SendPassResult> {
  const { db } = deps;
  let sent = 0;
  await settleStaleClaims(db);
  for (let i = 0; i < maxRows; i++) {
    // Shutting down: no new row is claimed; the one in flight has finished, the rest wait for the next pass.
    if (signal?.aborted) return { sent, more: true, waitMs: 0 };
    // Before every call: the sender of record may have been disabled or demoted since the last one.
    await pauseCampaignsWithoutSender(db);
    // Confirming the links of payments already in comes before asking more people (the background order).
    if (await linksAwaitingConfirmation(db)) return { sent, more: true, waitMs: 1_000 };
    const next = await claimNextRow(db);
    if (!next) {
      await finishDrainedCampaigns(db);
      // A claim left by a dead process keeps its campaign sending: look again until it is settled.
      return (await hasClaims(db)) ? { sent, more: true, waitMs: 5_000 } : { sent, more: false, waitMs: 0 };
    }
    try {
      const result = await sendClaimed(deps, next);
      // Left claimed: a stale claim is settled by a later pass.
      if (result === "in_flight") return { sent, more: true, waitMs: 5_000 };
      if (result === "sent") sent += 1;
    } catch (error) {
      // The shared budget has no room for background work now: nothing was sent, the row is released.
      if (error instanceof ServiceError && error.budgetRefused) {
        await releaseClaim(db, next.id, next.campaignId);
        return { sent, more: true, waitMs: error.retryAfterMs ?? 1_000 };
      }
      throw error;
    }
  }
  return { sent, more: true, waitMs: 0 };
}
