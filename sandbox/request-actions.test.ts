import { describe, expect, it } from "vitest";

import { autoDecision } from "./request-actions";

describe("autoDecision", () => {
  it("lets a tag whose first label is accept or decline decide by itself", () => {
    expect(["accept.auto", "accept.ada", "accept.42", "Accept.c1", "accept"].map(autoDecision)).toEqual(["accept", "accept", "accept", "accept", "accept"]);
    expect(["decline.auto", "decline.x"].map(autoDecision)).toEqual(["decline", "decline"]);
    expect(["ada.accept", "accepted.x", "bola", "declined"].map(autoDecision)).toEqual([null, null, null, null]);
  });
});
