import { describe, expect, it } from "vitest";

import { PER_ENDPOINT, underCap } from "./attempt.job";

describe("the per-endpoint cap on attempts in flight", () => {
  it("runs at most PER_ENDPOINT attempts to one endpoint at once, and does not hold another endpoint back", async () => {
    const releases: (() => void)[] = [];
    const held = Array.from({ length: PER_ENDPOINT }, () => underCap("slow", () => new Promise<string>((resolve) => releases.push(() => resolve("done")))));
    // The slow endpoint is full: one more is refused (the job puts it back), another endpoint's runs at once.
    expect(await underCap("slow", async () => "ran")).toBeNull();
    expect(await underCap("fast", async () => "ran")).toBe("ran");
    for (const release of releases) release();
    expect(await Promise.all(held)).toEqual(Array.from({ length: PER_ENDPOINT }, () => "done"));
    // Freed: the slow endpoint takes attempts again.
    expect(await underCap("slow", async () => "ran")).toBe("ran");
  });
});
