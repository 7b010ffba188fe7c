import { describe, expect, it } from "vitest";

import { createGroupCommit } from "./group-commit";

describe("createGroupCommit", () => {
  it("serves callers of one turn with one write, and callers arriving during a write with the next", async () => {
    const writes: number[][] = [];
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => (release = resolve));
    const group = createGroupCommit<number>(async (items) => {
      writes.push(items);
      if (writes.length === 1) await gate;
    });
    const first = [1, 2, 3].map((n) => group.add(n));
    // Let the first write start, then add while it is still running.
    await new Promise((resolve) => setImmediate(resolve));
    const later = [4, 5].map((n) => group.add(n));
    expect(writes).toEqual([[1, 2, 3]]);
    release();
    await Promise.all([...first, ...later]);
    expect(writes).toEqual([
      [1, 2, 3],
      [4, 5],
    ]);
  });

  it("rejects the callers of a failed write only, and keeps serving", async () => {
    let fail = true;
    const group = createGroupCommit<string>(async () => {
      if (fail) throw new Error("write failed");
    });
    const failed = await Promise.allSettled([group.add("a"), group.add("b")]);
    expect(failed.map((r) => r.status)).toEqual(["rejected", "rejected"]);
    fail = false;
    await expect(group.add("c")).resolves.toBeUndefined();
  });

  it("splits a crowd into writes of at most maxBatch", async () => {
    const sizes: number[] = [];
    const group = createGroupCommit<number>(async (items) => void sizes.push(items.length), 4);
    await Promise.all(Array.from({ length: 10 }, (_, i) => group.add(i)));
    expect(sizes).toEqual([4, 4, 2]);
  });
});
