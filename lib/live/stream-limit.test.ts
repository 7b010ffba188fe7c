import { describe, expect, it } from "vitest";

import { admitStream, MAX_STREAMS_PER_SESSION, openStreamCount } from "./stream-limit";

describe("admitStream", () => {
  it("keeps at most five streams per session: the sixth closes the oldest", () => {
    const closed: number[] = [];
    const forget: Array<() => void> = [];
    for (let i = 0; i < 10; i++) {
      const id = i;
      const f = admitStream("session-a", () => {
        closed.push(id);
        f?.();
      });
      forget.push(f);
    }
    expect(MAX_STREAMS_PER_SESSION).toBe(5);
    expect(closed).toEqual([0, 1, 2, 3, 4]);
    expect(openStreamCount("session-a")).toBe(5);
    // Another session is counted on its own.
    admitStream("session-b", () => undefined);
    expect(openStreamCount("session-b")).toBe(1);
    expect(closed).toHaveLength(5);
  });

  it("forgets a stream that closed by itself, so it no longer counts", () => {
    const forgets = Array.from({ length: 5 }, () => admitStream("session-c", () => undefined));
    forgets[2]?.();
    forgets[2]?.();
    expect(openStreamCount("session-c")).toBe(4);
    let closedOldest = false;
    admitStream("session-c", () => (closedOldest = true));
    expect(closedOldest).toBe(false);
    expect(openStreamCount("session-c")).toBe(5);
    for (const f of forgets) f();
    expect(openStreamCount("session-c")).toBe(1);
  });
});
