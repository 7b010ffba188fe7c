// Many callers, one write (docs/architecture.md, "A webhook delivery"): callers arriving while a write runs are
// served together by the next one, and each resolves only after a write that began after it arrived.

export interface GroupCommit<T> {
  /** Resolves once a write holding `item` is done; rejects with that write's error. */
  add(item: T): Promise<void>;
}

type Waiter<T> = { item: T; resolve: () => void; reject: (error: unknown) => void };

export function createGroupCommit<T>(write: (items: T[]) => Promise<void>, maxBatch = 200): GroupCommit<T> {
  let waiting: Waiter<T>[] = [];
  let running = false;

  async function drain(): Promise<void> {
    while (waiting.length > 0) {
      const batch = waiting.slice(0, maxBatch);
      waiting = waiting.slice(batch.length);
      try {
        await write(batch.map((w) => w.item));
        for (const w of batch) w.resolve();
      } catch (error) {
        for (const w of batch) w.reject(error);
      }
    }
    running = false;
  }

  return {
    add(item) {
      return new Promise<void>((resolve, reject) => {
        waiting.push({ item, resolve, reject });
        // The first caller starts the write on the next turn, so those arriving in this one join it.
        if (!running) {
          running = true;
          setImmediate(() => void drain());
        }
      });
    },
  };
}
