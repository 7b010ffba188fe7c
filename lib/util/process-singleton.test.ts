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

describe("the one holder of process-wide state", () => {
  it("is this module: no other file under lib/ or app/ touches globalThis", async () => {
    const { readdir, readFile } = await import("node:fs/promises");
    const path = await import("node:path");
    const offenders: string[] = [];
    const walk = async (dir: string): Promise<void> => {
      for (const entry of await readdir(dir, { withFileTypes: true })) {
        const full = path.join(dir, entry.name);
        if (entry.isDirectory()) await walk(full);
        else if (/\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) && !full.endsWith(path.join("util", "process-singleton.ts")))
          if ((await readFile(full, "utf8")).includes("globalThis")) offenders.push(path.relative(process.cwd(), full));
      }
    };
    await walk(path.join(process.cwd(), "lib"));
    await walk(path.join(process.cwd(), "app"));
    expect(offenders).toEqual([]);
  });
});
