// The job engine's queues and their policies (see docs/architecture.md, "Jobs").
import { createHash } from "node:crypto";

import type PgBoss from "pg-boss";

export const QUEUES = {
  /** Link a recorded payment to our request, then verify it; one job per payment uuid. */
  paymentFollowUp: "payment-follow-up",
  /** One reconciler pass; each pass queues the next. "stately": one waiting and one running at most, across all instances. */
  reconcile: "reconcile",
  /** Every minute: requests left `sending`, payments whose follow-up was lost, link retries. */
  sweep: "sweep",
  /** Every hour: delivery-log rows past DELIVERY_LOG_DAYS, sign-in attempts that no longer count. */
  retention: "retention",
  /** One pass over the queued rows of sending campaigns; each pass queues the next. "stately", like reconcile. */
  campaignSend: "campaign-send",
} as const;

export type QueueName = (typeof QUEUES)[keyof typeof QUEUES];

export const QUEUE_OPTIONS: Record<QueueName, Omit<PgBoss.Queue, "name">> = {
  // A job lost with its process expires after a minute and is retried (a rare slow one may run twice: the work is idempotent).
  [QUEUES.paymentFollowUp]: { policy: "standard", retryLimit: 5, retryDelay: 5, retryBackoff: true, expireInSeconds: 60, retentionMinutes: 7 * 24 * 60 },
  // A pass takes seconds (its calls run side by side, each capped at 10 s): one lost with a killed
  // instance expires after 15 s, and another instance's next pass goes ahead.
  // An expired pass is retried once at once, which carries the chain on on whichever instance takes it.
  [QUEUES.reconcile]: { policy: "stately", retryLimit: 1, retryDelay: 0, expireInSeconds: 15, retentionMinutes: 10 },
  [QUEUES.sweep]: { policy: "stately", retryLimit: 0, expireInSeconds: 300, retentionMinutes: 60 },
  [QUEUES.campaignSend]: { policy: "stately", retryLimit: 3, retryDelay: 5, expireInSeconds: 300, retentionMinutes: 60 },
  [QUEUES.retention]: { policy: "stately", retryLimit: 2, expireInSeconds: 1800, retentionMinutes: 24 * 60 },
};

/** The one job id a payment's follow-up can have: a second send for the same uuid inserts nothing. */
export function followUpJobId(paymentUuid: string): string {
  const hex = createHash("sha256").update(`payment-follow-up:${paymentUuid.toLowerCase()}`).digest("hex");
  // Shaped as a version-5-style uuid (pg-boss ids are uuids).
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-5${hex.slice(13, 16)}-${((parseInt(hex.slice(16, 18), 16) & 0x3f) | 0x80).toString(16)}${hex.slice(18, 20)}-${hex.slice(20, 32)}`;
}
