import { describe, expect, it } from "vitest";

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
