import { readFileSync } from "node:fs";
import path from "node:path";

import { describe, expect, it } from "vitest";

import { ROOT } from "@/tests/support/paths";
import { sourceFiles } from "@/tests/support/source-files";

import { dropProcessSingleton, processSingleton } from "./process-singleton";

describe("processSingleton", () => {
  it("makes a value once per process, under a registered symbol any bundle's copy finds, until dropped", () => {
    let made = 0;
    const make = () => ({ n: ++made });
    const first = processSingleton("test-singleton", make);
    expect(processSingleton("test-singleton", make)).toBe(first);
    // Another bundle's copy of this module reaches the same value through the registered symbol.
    expect((globalThis as unknown as Record<symbol, unknown>)[Symbol.for("fundboard.test-singleton")]).toBe(first);
    dropProcessSingleton("test-singleton");
    expect(processSingleton("test-singleton", make)).toEqual({ n: 2 });
    dropProcessSingleton("test-singleton");
  });
});

describe("the one holder of process-wide state", () => {
  it("is this module: no other file under lib/ or app/ touches globalThis", () => {
    const offenders = [...sourceFiles("lib"), ...sourceFiles("app")].filter(
      (file) => file !== path.join("lib", "util", "process-singleton.ts") && readFileSync(path.join(ROOT, file), "utf8").includes("globalThis"),
    );
    expect(offenders).toEqual([]);
  });
});
