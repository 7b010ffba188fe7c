import type PgBoss from "pg-boss";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import type { Database } from "@/lib/db/client";
import { dbTargets } from "@/tests/support/db-targets";

import { createJobEngine } from "./engine";
import { followUpJobId, QUEUES } from "./queues";

const urlOf = (database: Database): string | null => (database.pool ? (database.pool.options.connectionString ?? null) : null);

// pg-boss as the one job engine, on each database the dashboard runs on: jobs outlive the process
// that queued them, a payment's follow-up is one job however often it is queued, and the
// reconciler's queue holds one waiting pass at most.
describe.each(dbTargets())("the job engine on $name", (target) => {
  let database: Database;
  let dispose: () => Promise<void>;
  let reopen: () => Promise<Database>;
  beforeAll(async () => {
    const t = await target.create();
    database = t.database;
    dispose = t.dispose;
    reopen = t.reopen;
  });
  afterAll(async () => dispose());

  it("keeps one follow-up job per payment, and a job queued before a restart is worked after it", async () => {
    let boss: PgBoss = await createJobEngine(database, urlOf(database));
    const id = followUpJobId("0B4F3C1E-1111-4222-8333-444455556666");
    expect(id).toBe(followUpJobId("0b4f3c1e-1111-4222-8333-444455556666"));
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(await boss.send(QUEUES.paymentFollowUp, { uuid: "p-1" }, { id })).toBe(id);
    expect(await boss.send(QUEUES.paymentFollowUp, { uuid: "p-1" }, { id })).toBeNull();

    // The process stops with the job still queued (nobody worked it)…
    await boss.stop({ graceful: false, wait: true, close: true });
    if (target.name === "pglite") {
      await database.close();
      database = await reopen();
    }
    // …and the next start works it.
    boss = await createJobEngine(database, urlOf(database));
    try {
      const seen = new Promise<string>((resolve) => {
        void boss.work<{ uuid: string }>(QUEUES.paymentFollowUp, { pollingIntervalSeconds: 0.5 }, async ([job]) => resolve(job?.data.uuid ?? ""));
      });
      expect(await seen).toBe("p-1");
    } finally {
      await boss.stop({ graceful: true, wait: true, close: true, timeout: 5_000 });
    }
  });

  it("holds at most one waiting reconciler pass, however many instances queue one", async () => {
    const boss = await createJobEngine(database, urlOf(database));
    try {
      const sent = await Promise.all(Array.from({ length: 5 }, () => boss.send(QUEUES.reconcile, {}, { startAfter: new Date(Date.now() + 60_000) })));
      expect(sent.filter((s) => s !== null)).toHaveLength(1);
    } finally {
      await boss.stop({ graceful: true, wait: true, close: true, timeout: 5_000 });
    }
  });
});

describe("the job engine on the embedded database only", () => {
  const [pglite] = dbTargets();
  let database: Database;
  let dispose: () => Promise<void>;
  let reopen: () => Promise<Database>;
  beforeAll(async () => {
    if (!pglite) throw new Error("the PGlite target is missing");
    const t = await pglite.create();
    database = t.database;
    dispose = t.dispose;
    reopen = t.reopen;
  });
  afterAll(async () => dispose());

  it("takes up at once a job that a killed process held on the embedded database", async () => {
    let boss = await createJobEngine(database, null);
    await boss.send(QUEUES.paymentFollowUp, { uuid: "held" }, { id: followUpJobId("held") });
    // A worker took it (now "active") and its process died before finishing.
    const [taken] = await boss.fetch<{ uuid: string }>(QUEUES.paymentFollowUp);
    expect(taken?.data.uuid).toBe("held");
    await boss.stop({ graceful: false, wait: true, close: true });
    await database.close();
    database = await reopen();
    boss = await createJobEngine(database, null);
    try {
      const [again] = await boss.fetch<{ uuid: string }>(QUEUES.paymentFollowUp);
      expect(again?.data.uuid).toBe("held");
    } finally {
      await boss.stop({ graceful: true, wait: true, close: true, timeout: 5_000 });
    }
  });
});
