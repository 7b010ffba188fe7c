import "server-only";
import { safeErrorSummary } from "@/lib/log/safe-error";

// The webhook answers once the payment is committed; linking and verification (several queries and a
// service call each) wait here and give way to deliveries in progress, so a burst is acknowledged at
// full speed and the follow-ups catch up after it. A follow-up lost with the process leaves the payment
// `unverified`, and the sweeper queues it again.

export interface FollowUpOptions {
  /** Follow-ups running at once. */
  concurrency: number;
  /** Beyond this many waiting, new ones are left to the sweeper. */
  maxQueued: number;
  /** A worker takes the next item once no delivery is in progress and none began or ended for this long… */
  quietMs: number;
  /** …or after waiting this long, so follow-ups still move under a steady stream of deliveries. */
  maxYieldMs: number;
  log: (line: string) => void;
}

export interface FollowUpQueue {
  /** Queues a payment's follow-up once; false when it is already queued or the queue is full. */
  enqueue(uuid: string): boolean;
  /** Marks a delivery in progress; call the returned function when it is answered. */
  deliveryStarted(): () => void;
  readonly size: number;
  readonly running: number;
  /** Resolves when nothing is queued or running (tests, benchmarks). */
  drained(): Promise<void>;
}

export function createFollowUpQueue(work: (uuid: string) => Promise<void>, options: Partial<FollowUpOptions> = {}): FollowUpQueue {
  const opts: FollowUpOptions = { concurrency: 4, maxQueued: 10_000, quietMs: 20, maxYieldMs: 1_000, log: console.error, ...options };
  const waiting: string[] = [];
  const queued = new Set<string>();
  let running = 0;
  let deliveries = 0;
  let lastActivity = 0;
  const onDrained: (() => void)[] = [];

  // Requests queue up inside the server before a handler runs, so "none in progress" alone is not
  // "no burst": the deliveries must also have stopped coming for a moment.
  async function quietOrTimeout(): Promise<void> {
    const started = Date.now();
    for (;;) {
      const now = Date.now();
      const quietFor = now - lastActivity;
      if (deliveries === 0 && quietFor >= opts.quietMs) return;
      const left = opts.maxYieldMs - (now - started);
      if (left <= 0) return;
      await new Promise((resolve) => setTimeout(resolve, Math.min(left, Math.max(opts.quietMs - quietFor, 10))));
    }
  }

  async function worker(): Promise<void> {
    while (waiting.length > 0) {
      await quietOrTimeout();
      const uuid = waiting.shift();
      if (uuid === undefined) break;
      queued.delete(uuid);
      try {
        await work(uuid);
      } catch (error) {
        opts.log(`[payments] follow-up of ${uuid} failed: ${safeErrorSummary(error)}`);
      }
    }
  }

  function settle(list: (() => void)[]): void {
    for (const resolve of list.splice(0)) resolve();
  }

  function spawn(): void {
    while (running < opts.concurrency && waiting.length > running) {
      running += 1;
      void worker().finally(() => {
        running -= 1;
        if (running === 0 && waiting.length === 0) settle(onDrained);
        else if (waiting.length > running) spawn();
      });
    }
  }

  return {
    enqueue(uuid) {
      if (queued.has(uuid)) return false;
      if (waiting.length >= opts.maxQueued) return false;
      queued.add(uuid);
      waiting.push(uuid);
      spawn();
      return true;
    },
    deliveryStarted() {
      deliveries += 1;
      lastActivity = Date.now();
      let done = false;
      return () => {
        if (done) return;
        done = true;
        deliveries -= 1;
        lastActivity = Date.now();
      };
    },
    get size() {
      return waiting.length;
    },
    get running() {
      return running;
    },
    drained() {
      if (running === 0 && waiting.length === 0) return Promise.resolve();
      return new Promise((resolve) => onDrained.push(resolve));
    },
  };
}
