import { describe, expect, it } from "vitest";

import { createFollowUpQueue } from "./follow-up-queue";

/** A job the test finishes by hand, to see what runs when. */
function gatedWork() {
  const started: string[] = [];
  const finishers = new Map<string, () => void>();
  let onStart: (() => void) | null = null;
  const work = (uuid: string) =>
    new Promise<void>((resolve) => {
      started.push(uuid);
      finishers.set(uuid, resolve);
      onStart?.();
    });
  const nextStart = () => new Promise<void>((resolve) => (onStart = resolve));
  const finish = (uuid: string) => finishers.get(uuid)?.();
  return { work, started, finish, nextStart };
}

describe("payment follow-up queue", () => {
  it("runs each queued payment once, at most `concurrency` at a time, and reports when drained", async () => {
    const g = gatedWork();
    const q = createFollowUpQueue(g.work, { concurrency: 2 });
    expect(q.enqueue("a")).toBe(true);
    expect(q.enqueue("b")).toBe(true);
    expect(q.enqueue("c")).toBe(true);
    expect(q.enqueue("c")).toBe(false);
    await Promise.resolve();
    expect(g.started).toEqual(["a", "b"]);
    expect(q.running).toBe(2);
    const third = g.nextStart();
    g.finish("a");
    await third;
    expect(g.started).toEqual(["a", "b", "c"]);
    const drained = q.drained();
    g.finish("b");
    g.finish("c");
    await drained;
    expect(q.size).toBe(0);
    expect(q.running).toBe(0);
  });

  it("gives way while a delivery is in progress and resumes when it is answered", async () => {
    const done: string[] = [];
    const q = createFollowUpQueue(async (uuid) => void done.push(uuid), { concurrency: 1, maxYieldMs: 60_000 });
    const answered = q.deliveryStarted();
    q.enqueue("x");
    await new Promise((r) => setImmediate(r));
    expect(done).toEqual([]);
    const drained = q.drained();
    answered();
    answered(); // a second call changes nothing
    await drained;
    expect(done).toEqual(["x"]);
  });

  it("waits for deliveries to stop arriving for a moment, not only for none to be in progress", async () => {
    const done: string[] = [];
    const q = createFollowUpQueue(async (uuid) => void done.push(uuid), { concurrency: 1, quietMs: 200, maxYieldMs: 60_000 });
    q.deliveryStarted()();
    const started = Date.now();
    q.enqueue("z");
    await new Promise((r) => setTimeout(r, 20));
    expect(done).toEqual([]);
    await q.drained();
    expect(done).toEqual(["z"]);
    expect(Date.now() - started).toBeGreaterThanOrEqual(190);
  });

  it("under deliveries that never pause, still takes an item after the longest yield", async () => {
    const done: string[] = [];
    const q = createFollowUpQueue(async (uuid) => void done.push(uuid), { concurrency: 1, maxYieldMs: 50 });
    const answered = q.deliveryStarted();
    const started = Date.now();
    q.enqueue("y");
    await q.drained();
    expect(done).toEqual(["y"]);
    expect(Date.now() - started).toBeGreaterThanOrEqual(45);
    answered();
  });

  it("refuses beyond its bound and keeps going after a failing follow-up", async () => {
    const logged: string[] = [];
    const done: string[] = [];
    const g = gatedWork();
    const q = createFollowUpQueue(
      async (uuid) => {
        if (uuid === "bad") throw new Error("verify host exploded");
        if (uuid === "slow") return g.work(uuid);
        done.push(uuid);
      },
      { concurrency: 1, maxQueued: 2, log: (l) => logged.push(l) },
    );
    expect(q.enqueue("slow")).toBe(true);
    await Promise.resolve();
    expect(q.enqueue("bad")).toBe(true);
    expect(q.enqueue("ok")).toBe(true);
    expect(q.enqueue("overflow")).toBe(false);
    const drained = q.drained();
    g.finish("slow");
    await drained;
    expect(done).toEqual(["ok"]);
    expect(logged).toEqual(["[payments] follow-up of bad failed: Error: verify host exploded"]);
  });
});
