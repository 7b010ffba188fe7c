import "server-only";

import type PgBoss from "pg-boss";

import { pruneRefusedSignIns } from "@/lib/audit/retention";
import { pruneSessions } from "@/lib/auth/sessions";
import { pruneAttempts } from "@/lib/auth/throttle";
import { sendCampaignRows } from "@/lib/campaigns/send";
import { safeErrorSummary } from "@/lib/log/safe-error";
import type { Db } from "@/lib/db/client";
import { followUpPayment } from "@/lib/payments/after-record";
import { paymentDeps } from "@/lib/payments/deps";
import { sweepOnce } from "@/lib/payments/sweep";
import { requestDeps } from "@/lib/requests/deps";
import { createReconciler } from "@/lib/requests/reconciler";
import { getBackgroundService } from "@/lib/service/app-client";
import { waitForQuietIntake } from "@/lib/webhooks/intake-pressure";
import { pruneDeliveryLog } from "@/lib/webhooks/log-retention";

import { workQueue } from "./engine";
import { QUEUES } from "./queues";

/** Pause between reconciler passes: each pass queues the next this far ahead. */
const RECONCILE_EVERY_MS = 1_000;
const FOLLOW_UP_WORKERS = 2;
const FOLLOW_UP_BATCH = 8;
const FOLLOW_UP_CONCURRENCY = 8;
// During a burst of deliveries a batch waits for a lull, at most this long (then it runs anyway).
const FOLLOW_UP_YIELD_MAX_MS = 5_000;
const CAMPAIGN_ROWS_PER_PASS = 20;

/** Runs `work` over `items`, `limit` at a time; answers the errors (the others still run). */
async function runLimited<T>(items: readonly T[], limit: number, work: (item: T) => Promise<void>): Promise<unknown[]> {
  const failures: unknown[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(limit, items.length) }, async () => {
      for (let item = items[next++]; item !== undefined; item = items[next++]) await work(item).catch((error: unknown) => failures.push(error));
    }),
  );
  return failures;
}

export interface WorkerSettings {
  deliveryLogDays: number;
  log: (line: string) => void;
}

/**
 * What this instance does for the job engine: work every queue, and keep the clocks (pg-boss
 * schedules live in the database, so several instances keep one clock). See docs/architecture.md.
 */
export async function startWorkers(boss: PgBoss, db: Db, settings: WorkerSettings): Promise<void> {
  const { log } = settings;
  // A worker waits a polling interval between fetches, so each fetch takes a batch (a burst of
  // payments is followed up at tens a second, not one). The batch is retried whole on a failure:
  // the work is idempotent, so redoing the ones that succeeded changes nothing.
  for (let i = 0; i < FOLLOW_UP_WORKERS; i++) {
    await workQueue<{ uuid: string }>(boss, QUEUES.paymentFollowUp, { pollingIntervalSeconds: 1, batchSize: FOLLOW_UP_BATCH }, async (jobs) => {
      await waitForQuietIntake(FOLLOW_UP_YIELD_MAX_MS);
      const failures = await runLimited(jobs, FOLLOW_UP_CONCURRENCY, (job) => followUpPayment(paymentDeps(db), job.data.uuid));
      if (failures.length > 0) throw new Error(`${failures.length} of ${jobs.length} follow-ups failed: ${safeErrorSummary(failures[0])}`);
    });
  }

  // Passes use the background client: its calls come out of the background share of the budget.
  const reconciler = createReconciler({ ...requestDeps(db), service: getBackgroundService() }, { log: (line) => log(`[reconciler] ${line}`) });
  await boss.work(QUEUES.reconcile, { pollingIntervalSeconds: 1, batchSize: 1 }, async () => {
    try {
      await reconciler.runOnce();
    } finally {
      // The chain: "stately" keeps at most one waiting pass, so a second sender changes nothing.
      await boss.send(QUEUES.reconcile, {}, { startAfter: new Date(Date.now() + RECONCILE_EVERY_MS) });
    }
  });

  await boss.work(QUEUES.sweep, { pollingIntervalSeconds: 5, batchSize: 1 }, async () => {
    const touched = await sweepOnce(paymentDeps(db));
    if (touched > 0) log(`[sweep] ${touched} payments or requests taken up`);
  });

  await boss.work(QUEUES.retention, { pollingIntervalSeconds: 30, batchSize: 1 }, async () => {
    const gone = await pruneDeliveryLog(db, settings.deliveryLogDays);
    await pruneAttempts(db);
    const sessions = await pruneSessions(db);
    const refusals = await pruneRefusedSignIns(db);
    if (refusals > 0) log(`[retention] ${refusals} refused sign-in rows older than 90 days removed from the audit log`);
    if (sessions > 0) log(`[retention] ${sessions} ended or expired session rows removed`);
    if (gone > 0) log(`[retention] ${gone} delivery-log rows older than ${settings.deliveryLogDays} days removed`);
  });

  // Campaign rows go out through the form's code path on the background client, so they spend the
  // background share of the budget and wait when it is spent.
  const campaignDeps = { ...requestDeps(db), service: getBackgroundService(), fetchGate: undefined };
  await boss.work(QUEUES.campaignSend, { pollingIntervalSeconds: 1, batchSize: 1 }, async () => {
    const pass = await sendCampaignRows(campaignDeps, CAMPAIGN_ROWS_PER_PASS);
    if (pass.more) await boss.send(QUEUES.campaignSend, {}, { startAfter: new Date(Date.now() + pass.waitMs) });
  });

  await boss.schedule(QUEUES.sweep, "* * * * *");
  // Picks up sending campaigns should their chain break (a pass lost with its process).
  await boss.schedule(QUEUES.campaignSend, "* * * * *");
  await boss.schedule(QUEUES.retention, "17 * * * *");
  // Restarts the reconciler's chain within a minute should it ever break (a pass lost with its process).
  await boss.schedule(QUEUES.reconcile, "* * * * *");
  await boss.send(QUEUES.reconcile, {});
}
