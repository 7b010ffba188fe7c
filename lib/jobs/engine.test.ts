import type PgBoss from "pg-boss";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import type { Database } from "@/lib/db/client";
import { dropProcessSingleton, setProcessSingleton } from "@/lib/util/process-singleton";
import { dbTargets } from "@/tests/support/db-targets";
import { waitFor } from "@/tests/support/wait-for";

import { z } from "zod";

import { defineJob } from "./define";
import { createJobEngine, registerJobs, wakeWorkers } from "./engine";
import { derivedJobId } from "./ids";

// Two jobs of the engine's own (lib/jobs knows no domain): a per-item job with derived ids, and a "stately" chain.
const itemJob = defineJob({
  queue: "engine-test-item",
  payload: z.object({ uuid: z.string() }),
  policy: { policy: "standard", retryLimit: 5, retryDelay: 5, expireInSeconds: 60 },
  work: { workers: 1, batchSize: 1, pollingIntervalSeconds: 1 },
  handler: () => async () => undefined,
});
const chainJob = defineJob({
  queue: "engine-test-chain",
  payload: z.object({}),
  policy: { policy: "stately", retryLimit: 1, expireInSeconds: 15 },
  work: { workers: 1, batchSize: 1, pollingIntervalSeconds: 1 },
  handler: () => async () => undefined,
});
const JOBS = [itemJob, chainJob];
const itemId = (key: string) => derivedJobId(itemJob.queue, key.toLowerCase());

/** A promise and the function that settles it: a handler says "this happened", the test awaits it. */
function signal(): [Promise<void>, () => void] {
  let settle: () => void = () => undefined;
  const promise = new Promise<void>((resolve) => (settle = resolve));
  return [promise, settle];
}

/** Room for a worker to fetch again at once, were it to: the loop turns and the database answers behind any fetch. */
async function roomForADrain(database: Database): Promise<void> {
  for (let i = 0; i < 5; i++) await new Promise<void>((resolve) => setImmediate(resolve));
  for (let i = 0; i < 3; i++) await database.db.execute("select 1");
}

const urlOf = (database: Database): string | null => (database.pool ? (database.pool.options.connectionString ?? null) : null);

// pg-boss as the one job engine, on each database the dashboard runs on: jobs outlive the process
// that queued them, a job with a derived id is one job however often it is queued, and a "stately"
// queue holds one waiting job at most.
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

  it("keeps one job per derived id, and a job queued before a restart is worked after it", async () => {
    let boss: PgBoss = await createJobEngine(database, urlOf(database), JOBS);
    const id = itemId("0B4F3C1E-1111-4222-8333-444455556666");
    expect(id).toBe(itemId("0b4f3c1e-1111-4222-8333-444455556666"));
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(await boss.send(itemJob.queue, { uuid: "p-1" }, { id })).toBe(id);
    expect(await boss.send(itemJob.queue, { uuid: "p-1" }, { id })).toBeNull();

    // The process stops with the job still queued (nobody worked it)…
    await boss.stop({ graceful: false, wait: true, close: true });
    if (target.name === "pglite") {
      await database.close();
      database = await reopen();
    }
    // …and the next start works it.
    boss = await createJobEngine(database, urlOf(database), JOBS);
    try {
      const seen = new Promise<string>((resolve) => {
        void boss.work<{ uuid: string }>(itemJob.queue, { pollingIntervalSeconds: 0.5 }, async ([job]) => resolve(job?.data.uuid ?? ""));
      });
      expect(await seen).toBe("p-1");
    } finally {
      await boss.stop({ graceful: true, wait: true, close: true, timeout: 5_000 });
    }
  });

  it("holds at most one waiting job of a stately queue, however many instances queue one", async () => {
    const boss = await createJobEngine(database, urlOf(database), JOBS);
    try {
      const sent = await Promise.all(Array.from({ length: 5 }, () => boss.send(chainJob.queue, {}, { startAfter: new Date(Date.now() + 60_000) })));
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
    let boss = await createJobEngine(database, null, JOBS);
    await boss.send(itemJob.queue, { uuid: "held" }, { id: itemId("held") });
    // A worker took it (now "active") and its process died before finishing.
    const [taken] = await boss.fetch<{ uuid: string }>(itemJob.queue);
    expect(taken?.data.uuid).toBe("held");
    await boss.stop({ graceful: false, wait: true, close: true });
    await database.close();
    database = await reopen();
    boss = await createJobEngine(database, null, JOBS);
    try {
      const [again] = await boss.fetch<{ uuid: string }>(itemJob.queue);
      expect(again?.data.uuid).toBe("held");
    } finally {
      await boss.stop({ graceful: true, wait: true, close: true, timeout: 5_000 });
    }
  });

  it("drains a backlog at the handler's pace: a full batch fetches again at once, not after the polling interval", async () => {
    const seen: string[] = [];
    const [all, resolveAll] = signal();
    const job = defineJob({
      queue: "engine-test-backlog",
      payload: z.object({ n: z.number() }),
      policy: { policy: "standard", retryLimit: 0, expireInSeconds: 60 },
      // A poll far longer than the test's timeout: only draining gets through ten jobs in time.
      work: { workers: 1, batchSize: 2, pollingIntervalSeconds: 600 },
      handler: () => async (jobs) => {
        for (const j of jobs) seen.push(String(j.n));
        if (seen.length === 10) resolveAll();
      },
    });
    const boss = await createJobEngine(database, null, [job]);
    try {
      await boss.insert(Array.from({ length: 10 }, (_, n) => ({ name: job.queue, data: { n } })));
      await registerJobs(boss, [job], { db: database.db, log: () => undefined, signal: new AbortController().signal });
      await all;
      expect(seen.map(Number).sort((a, b) => a - b)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    } finally {
      await boss.stop({ graceful: true, wait: true, close: true, timeout: 5_000 });
    }
  });

  it("lets the event loop turn between batches while it drains", async () => {
    const seen: number[] = [];
    let seenWhenLoopTurned = -1;
    const [all, resolveAll] = signal();
    const job = defineJob({
      queue: "engine-test-turns",
      payload: z.object({ n: z.number() }),
      policy: { policy: "standard", retryLimit: 0, expireInSeconds: 60 },
      work: { workers: 1, batchSize: 1, pollingIntervalSeconds: 600 },
      handler: () => async (jobs) => {
        // On the embedded database the fetch, this query and the completion never leave the microtask queue.
        await database.db.execute("select 1");
        for (const j of jobs) seen.push(j.n);
        if (seen.length === 1) setImmediate(() => (seenWhenLoopTurned = seen.length));
        if (seen.length === 20) resolveAll();
        return undefined;
      },
    });
    const boss = await createJobEngine(database, null, [job]);
    try {
      await boss.insert(Array.from({ length: 20 }, (_, n) => ({ name: job.queue, data: { n } })));
      await registerJobs(boss, [job], { db: database.db, log: () => undefined, signal: new AbortController().signal });
      await all;
      expect(seenWhenLoopTurned).toBeGreaterThan(0);
      expect(seenWhenLoopTurned).toBeLessThan(20);
    } finally {
      await boss.stop({ graceful: true, wait: true, close: true, timeout: 5_000 });
    }
  });

  it('does not fetch again at once after a batch that was put back ("wait")', async () => {
    const seen: number[] = [];
    const [first, resolveFirst] = signal();
    const job = defineJob({
      queue: "engine-test-put-back",
      payload: z.object({ n: z.number() }),
      policy: { policy: "standard", retryLimit: 0, expireInSeconds: 60 },
      work: { workers: 1, batchSize: 1, pollingIntervalSeconds: 600 },
      handler: () => async (jobs) => {
        for (const j of jobs) seen.push(j.n);
        resolveFirst();
        return "wait";
      },
    });
    const boss = await createJobEngine(database, null, [job]);
    try {
      await boss.insert([0, 1].map((n) => ({ name: job.queue, data: { n } })));
      await registerJobs(boss, [job], { db: database.db, log: () => undefined, signal: new AbortController().signal });
      await first;
      await roomForADrain(database);
      expect(seen).toHaveLength(1);
    } finally {
      await boss.stop({ graceful: true, wait: true, close: true, timeout: 5_000 });
    }
  });

  it("wakes as many workers as the jobs queued need, not every worker of the queue", async () => {
    let inFlight = 0;
    let done = 0;
    let gate = signal();
    const job = defineJob({
      queue: "engine-test-wake",
      payload: z.object({ n: z.number() }),
      policy: { policy: "standard", retryLimit: 0, expireInSeconds: 60 },
      // Four workers that, unwoken, do not fetch again within the test; a batch of one each.
      work: { workers: 4, batchSize: 1, pollingIntervalSeconds: 600 },
      handler: () => async () => {
        inFlight += 1;
        await gate[0];
        inFlight -= 1;
        done += 1;
      },
    });
    const boss = await createJobEngine(database, null, [job]);
    setProcessSingleton("jobs", boss);
    try {
      await registerJobs(boss, [job], { db: database.db, log: () => undefined, signal: new AbortController().signal });
      // One job queued, one worker woken: the other three stay asleep although four jobs wait.
      await boss.insert(Array.from({ length: 4 }, (_, n) => ({ name: job.queue, data: { n } })));
      wakeWorkers(job.queue, 1);
      await waitFor("a worker taking a job", () => (inFlight === 1 ? true : undefined));
      await roomForADrain(database);
      expect(inFlight).toBe(1);
      // Released, that worker drains the rest one after another.
      gate[1]();
      await waitFor("the four jobs done", () => (done === 4 ? true : undefined));
      // Not told how many: every worker, side by side.
      gate = signal();
      await boss.insert(Array.from({ length: 4 }, (_, n) => ({ name: job.queue, data: { n: n + 4 } })));
      wakeWorkers(job.queue);
      await waitFor("four workers at once", () => (inFlight === 4 ? true : undefined));
      gate[1]();
      await waitFor("the eight jobs done", () => (done === 8 ? true : undefined));
    } finally {
      dropProcessSingleton("jobs");
      await boss.stop({ graceful: true, wait: true, close: true, timeout: 5_000 });
    }
  });

  it("does not drain a stately chain: the next pass, due at once, waits for the next poll", async () => {
    let runs = 0;
    const [first, resolveFirst] = signal();
    const job = defineJob({
      queue: "engine-test-stately-chain",
      payload: z.object({}),
      policy: { policy: "stately", retryLimit: 0, expireInSeconds: 60 },
      work: { workers: 1, batchSize: 1, pollingIntervalSeconds: 600 },
      handler:
        ({ boss }) =>
        async () => {
          runs += 1;
          await boss.send("engine-test-stately-chain", {});
          resolveFirst();
        },
    });
    const boss = await createJobEngine(database, null, [job]);
    try {
      await boss.send(job.queue, {});
      await registerJobs(boss, [job], { db: database.db, log: () => undefined, signal: new AbortController().signal });
      await first;
      await roomForADrain(database);
      expect(runs).toBe(1);
    } finally {
      await boss.stop({ graceful: true, wait: true, close: true, timeout: 5_000 });
    }
  });

  it("registers a job: its handler gets parsed payloads, and a payload that does not fit fails the job unseen", async () => {
    const seen: string[] = [];
    const [handled, resolveSeen] = signal();
    const job = defineJob({
      queue: "engine-test-registered",
      payload: z.object({ uuid: z.string() }),
      policy: { policy: "standard", retryLimit: 0, expireInSeconds: 60 },
      work: { workers: 1, batchSize: 1, pollingIntervalSeconds: 0.5 },
      handler: () => async (jobs) => {
        for (const j of jobs) seen.push(j.uuid);
        resolveSeen();
      },
    });
    const boss = await createJobEngine(database, null, [job]);
    try {
      const bad = await boss.send(job.queue, { nope: 1 });
      await registerJobs(boss, [job], { db: database.db, log: () => undefined, signal: new AbortController().signal });
      await boss.send(job.queue, { uuid: "fits" });
      await handled;
      expect(seen).toEqual(["fits"]);
      const failed = await boss.getJobById(job.queue, bad ?? "");
      expect(failed?.state).toBe("failed");
    } finally {
      await boss.stop({ graceful: true, wait: true, close: true, timeout: 5_000 });
    }
  });
});
