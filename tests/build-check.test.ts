// CI's one build stands in for the hardening suite's own only when it is of these sources and saw the suite's key.
import { describe, expect, it } from "vitest";

import { keyFingerprint } from "@/scripts/build-if-needed";
import { givenBuildProblem } from "@/tests/hardening/build-check";

const KEY = "fbk_hardening_test_key";

describe("the hardening suite's check of a given build", () => {
  it("takes a build of these sources made with the hardening key", () => {
    expect(givenBuildProblem({ hash: "abc", serviceKeySha256: keyFingerprint(KEY) }, "abc", KEY)).toBeNull();
  });

  it("refuses a folder with no finished build", () => {
    expect(givenBuildProblem(null, "abc", KEY)).toMatch(/no build/);
  });

  it("refuses a build of other sources", () => {
    expect(givenBuildProblem({ hash: "old", serviceKeySha256: keyFingerprint(KEY) }, "abc", KEY)).toMatch(/other sources/);
  });

  it("refuses a build made without a key, or with another key", () => {
    expect(givenBuildProblem({ hash: "abc", serviceKeySha256: null }, "abc", KEY)).toMatch(/hardening key/);
    expect(givenBuildProblem({ hash: "abc", serviceKeySha256: keyFingerprint("fbk_other") }, "abc", KEY)).toMatch(/hardening key/);
  });
});
