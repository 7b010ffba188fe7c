import "server-only";

import type PgBoss from "pg-boss";

import { pruneAttempts } from "@/lib/auth/throttle";
import type { Db } from "@/lib/db/client";
import { followUpPayment } from "@/lib/payments/after-record";
import { paymentDeps } from "@/lib/payments/deps";
import { sweepOnce } from "@/lib/payments/sweep";
import { requestDeps } from "@/lib/requests/deps";
import { createReconciler } from "@/lib/requests/reconciler";
import { getBackgroundService } from "@/lib/service/app-client";
import { pruneDeliveryLog } from "@/lib/webhooks/log-retention";

import { QUEUES } from "./queues";

/** Pause between reconciler passes: each pass queues the next this far ahead. */
const RECONCILE_EVERY_MS = 1_000;
const FOLLOW_UP_WORKERS = 2;

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
  for (let i = 0; i < FOLLOW_UP_WORKERS; i++) {
    await boss.work<{ uuid: string }>(QUEUES.paymentFollowUp, { pollingIntervalSeconds: 1, batchSize: 1 }, async ([job]) => {
      if (job) await followUpPayment(paymentDeps(db), job.data.uuid);
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
    if (gone > 0) log(`[retention] ${gone} delivery-log rows older than ${settings.deliveryLogDays} days removed`);
  });

  await boss.schedule(QUEUES.sweep, "* * * * *");
  await boss.schedule(QUEUES.retention, "17 * * * *");
  // Restarts the reconciler's chain within a minute should it ever break (a pass lost with its process).
  await boss.schedule(QUEUES.reconcile, "* * * * *");
  await boss.send(QUEUES.reconcile, {});
}
