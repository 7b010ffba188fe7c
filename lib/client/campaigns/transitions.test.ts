import { describe, expect, it } from "vitest";

import { allowedTransitions, TRANSITIONS } from "./transitions";
import { CAMPAIGN_STATUSES } from "./view";

describe("the campaign state machine", () => {
  it("offers each status exactly the actions whose rule starts from it", () => {
    expect(Object.fromEntries(CAMPAIGN_STATUSES.map((s) => [s, allowedTransitions(s)]))).toEqual({
      draft: ["start", "cancel"],
      sending: ["pause", "cancel"],
      paused: ["resume", "cancel"],
      done: [],
      cancelled: [],
    });
  });

  it("never moves a finished or cancelled campaign", () => {
    for (const rule of Object.values(TRANSITIONS)) {
      expect(rule.from).not.toContain("done");
      expect(rule.from).not.toContain("cancelled");
    }
    expect(TRANSITIONS.cancel.to).toBe("cancelled");
  });
});
