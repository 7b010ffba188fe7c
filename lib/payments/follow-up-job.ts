import "server-only";

import type PgBoss from "pg-boss";

import { jobEngine, wakeWorkers } from "@/lib/jobs/engine";
import { followUpJobId, QUEUES } from "@/lib/jobs/queues";
import { createGroupCommit, type GroupCommit } from "@/lib/util/group-commit";

// Deliveries answered together share one insert of their follow-up jobs (docs/architecture.md, "A webhook
// delivery"): each waits for the insert holding its job before its 200, so a crash before the insert means no
// 200 and the service's retry queues the job again. A payment has one job however often it is queued.

export type FollowUpQueue = GroupCommit<string>;

/** A queue over `insert`: the payments of callers arriving together are stored by one insert. */
export function createFollowUpQueue(insert: (jobs: PgBoss.JobInsert[]) => Promise<unknown>): FollowUpQueue {
  return createGroupCommit<string>(async (uuids) => {
    const unique = [...new Set(uuids.map((u) => u.toLowerCase()))];
    await insert(unique.map((uuid) => ({ name: QUEUES.paymentFollowUp, id: followUpJobId(uuid), data: { uuid } })));
  });
}

const KEY = Symbol.for("fundboard.follow-up-queue");
type Holder = { [KEY]?: FollowUpQueue };

/** Queues the payment's follow-up (link, then verify) on the process's job engine; nothing before the engine starts. */
export function queueFollowUp(paymentUuid: string): Promise<void> {
  const g = globalThis as Holder;
  g[KEY] ??= createFollowUpQueue(async (jobs) => {
    const boss = jobEngine();
    if (!boss) return;
    await boss.insert(jobs);
    // Taken here at once (a payment's request turns "accepted" in the browsers within moments), not at the next poll.
    wakeWorkers(QUEUES.paymentFollowUp);
  });
  return g[KEY].add(paymentUuid);
}
