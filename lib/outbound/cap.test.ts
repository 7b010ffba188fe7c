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

  it("lets an attempt wait a while for its endpoint's slot: it runs when one frees, and is refused when none does", async () => {
    const releases: (() => void)[] = [];
    const held = Array.from({ length: PER_ENDPOINT }, () => underCap("busy", () => new Promise<string>((resolve) => releases.push(() => resolve("done")))));
    const waiter = underCap("busy", async () => "ran after a wait", 60_000);
    const impatient = underCap("busy", async () => "ran", 1);
    expect(await impatient).toBeNull();
    releases.shift()?.();
    expect(await waiter).toBe("ran after a wait");
    for (const release of releases) release();
    expect(await Promise.all(held)).toEqual(Array.from({ length: PER_ENDPOINT }, () => "done"));
    // Every slot came back: the endpoint takes PER_ENDPOINT at once again, and not one more.
    const again: (() => void)[] = [];
    const full = Array.from({ length: PER_ENDPOINT }, () => underCap("busy", () => new Promise<string>((resolve) => again.push(() => resolve("done")))));
    expect(await underCap("busy", async () => "ran")).toBeNull();
    for (const release of again) release();
    await Promise.all(full);
  });
});
