import "server-only";

import { campaignSendJob } from "@/lib/campaigns/send.job";
import type { EventConsumer } from "@/lib/events/consumer";
import { eventsDispatchJob } from "@/lib/events/dispatch.job";
import type { Job } from "@/lib/jobs/define";
import { digestEmailJob } from "@/lib/notifications/digest-email.job";
import { digestJob } from "@/lib/notifications/digest.job";
import { emailJob } from "@/lib/notifications/email.job";
import { notifyConsumer } from "@/lib/notifications/notify.consumer";
import { attemptJob } from "@/lib/outbound/attempt.job";
import { deliverConsumer } from "@/lib/outbound/deliver.consumer";
import { followUpJob } from "@/lib/payments/follow-up.job";
import { sweepJob } from "@/lib/payments/sweep.job";
import { payPageSendJob } from "@/lib/pay-pages/send.job";
import { plansClockJob } from "@/lib/plans/plans.job";
import { exceptionsScanJob } from "@/lib/exceptions/scan.job";
import { reconcileJob } from "@/lib/requests/reconcile.job";
import { retentionJob } from "@/lib/retention/retention.job";

// The composition root of background work: every job of every domain, registered with the engine at start
// (lib/server/start.ts). A new job is one `*.job.ts` in its domain and one line here (docs/architecture.md, "Jobs").
// Every durable consumer of business events (one `*.consumer.ts` in its domain, docs/architecture.md "Events").
export const CONSUMERS: readonly EventConsumer[] = [notifyConsumer, deliverConsumer];

export const JOBS: readonly Job[] = [
  followUpJob,
  reconcileJob,
  sweepJob,
  retentionJob,
  campaignSendJob,
  payPageSendJob,
  plansClockJob,
  exceptionsScanJob,
  emailJob,
  digestJob,
  digestEmailJob,
  attemptJob,
  eventsDispatchJob(CONSUMERS),
  ...CONSUMERS.map((c) => c.job),
];
