import { describe, expect, it } from "vitest";

import { admitStream, MAX_STREAMS_PER_ACCOUNT, openStreamCount } from "./stream-limit";

describe("admitStream", () => {
  it("keeps at most ten streams per account: the eleventh closes the oldest", () => {
    const closed: number[] = [];
    const forget: Array<() => void> = [];
    for (let i = 0; i < 15; i++) {
      const id = i;
      const f = admitStream("account-a", () => {
        closed.push(id);
        f?.();
      });
      forget.push(f);
    }
    expect(MAX_STREAMS_PER_ACCOUNT).toBe(10);
    expect(closed).toEqual([0, 1, 2, 3, 4]);
    expect(openStreamCount("account-a")).toBe(10);
    // Another account is counted on its own.
    admitStream("account-b", () => undefined);
    expect(openStreamCount("account-b")).toBe(1);
    expect(closed).toHaveLength(5);
  });

  it("forgets a stream that closed by itself, so it no longer counts", () => {
    const forgets = Array.from({ length: 10 }, () => admitStream("account-c", () => undefined));
    forgets[2]?.();
    forgets[2]?.();
    expect(openStreamCount("account-c")).toBe(9);
    let closedOldest = false;
    admitStream("account-c", () => (closedOldest = true));
    expect(closedOldest).toBe(false);
    expect(openStreamCount("account-c")).toBe(10);
    for (const f of forgets) f();
    expect(openStreamCount("account-c")).toBe(1);
  });
});
