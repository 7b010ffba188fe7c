import { describe, expect, it } from "vitest";

import { BUSY_IN_FLIGHT, deliveryStarted, intakeBusy, intakeQuiet, waitWhileIntakeBusy } from "./intake-pressure";

// Background work yields to payments arriving (docs/architecture.md "A webhook delivery"): the follow-up's
// verification waits for a full lull, the events' consumers only while deliveries queue up.

describe("the intake's pressure", () => {
  it("is busy from BUSY_IN_FLIGHT deliveries in progress, not at a steady one or two, and quiet only with none", () => {
    const done = [deliveryStarted()];
    expect(intakeBusy()).toBe(false);
    expect(intakeQuiet(0)).toBe(false);
    while (done.length < BUSY_IN_FLIGHT) done.push(deliveryStarted());
    expect(intakeBusy()).toBe(true);
    done.pop()?.();
    expect(intakeBusy()).toBe(false);
    for (const end of done) end();
    expect(intakeQuiet(0)).toBe(true);
  });

  it("lets a consumer through as soon as the flood ebbs, and after its cap if it never does", async () => {
    const flood = Array.from({ length: BUSY_IN_FLIGHT }, () => deliveryStarted());
    const capped = await waitWhileIntakeBusy(60);
    expect(capped).toBeGreaterThanOrEqual(60);
    const ebbing = waitWhileIntakeBusy(10_000);
    flood.pop()?.();
    expect(await ebbing).toBeLessThan(1_000);
    for (const end of flood) end();
    expect(await waitWhileIntakeBusy(10_000)).toBeLessThan(25);
  });
});
