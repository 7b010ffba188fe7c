import { describe, expect, it } from "vitest";

import { nextPassDelay } from "./dispatch.job";

// The dispatcher's pace (docs/decisions.md, "A pass every 250 ms, lull included"): the wait for a lull counts
// towards the 250 ms between passes, and a full batch means the next pass at once.
describe("nextPassDelay", () => {
  it("is 250 ms after a pass that did not wait, and the rest of it after one that did", () => {
    expect(nextPassDelay(0, 0)).toBe(250);
    expect(nextPassDelay(12, 90)).toBe(160);
    expect(nextPassDelay(199, 249)).toBe(1);
  });

  it("is never below nothing, however long the wait", () => {
    expect(nextPassDelay(3, 250)).toBe(0);
    expect(nextPassDelay(3, 400)).toBe(0);
  });

  it("is nothing after a full batch of 200, whatever the wait: a burst is taken slice after slice", () => {
    expect(nextPassDelay(200, 0)).toBe(0);
    expect(nextPassDelay(200, 30)).toBe(0);
  });
});
