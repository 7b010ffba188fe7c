import { describe, expect, it } from "vitest";

import { deliveryStarted, intakeQuiet, waitForQuietIntake } from "./intake-pressure";

// Background work yields to payments arriving (docs/architecture.md "A webhook delivery"): the follow-ups and the
// events' consumers wait for a lull in this process's intake, each never longer than its cap.

describe("the intake's pressure", () => {
  it("is quiet only with no delivery in progress and none ended within the quiet time", () => {
    const done = [deliveryStarted(), deliveryStarted()];
    expect(intakeQuiet(0)).toBe(false);
    done.pop()?.();
    expect(intakeQuiet(0)).toBe(false);
    done.pop()?.();
    expect(intakeQuiet(0)).toBe(true);
    expect(intakeQuiet(60_000)).toBe(false);
  });

  it("lets the work through once the deliveries end, and after its cap if they never do", async () => {
    const end = deliveryStarted();
    expect(await waitForQuietIntake(60)).toBeGreaterThanOrEqual(60);
    const waiting = waitForQuietIntake(10_000, 20);
    end();
    expect(await waiting).toBeLessThan(1_000);
  });
});
