import { describe, expect, it } from "vitest";

import { takeExportSlot } from "./export-slots";

describe("export slots", () => {
  it("give one export a person and three an instance at once, and free each slot once when its file ends", () => {
    const ada = takeExportSlot("ada");
    expect(ada).not.toBeNull();
    // Ada's second click waits for her first file.
    expect(takeExportSlot("ada")).toBeNull();
    const bola = takeExportSlot("bola");
    const chidi = takeExportSlot("chidi");
    expect([bola, chidi].every(Boolean)).toBe(true);
    // The instance makes three at once: the fourth person waits.
    expect(takeExportSlot("dayo")).toBeNull();
    ada?.();
    ada?.();
    // Released once (a second release frees nothing more): one slot for Dayo, none for a fifth.
    const dayo = takeExportSlot("dayo");
    expect(dayo).not.toBeNull();
    expect(takeExportSlot("emeka")).toBeNull();
    for (const release of [bola, chidi, dayo]) release?.();
    expect(takeExportSlot("ada")).not.toBeNull();
  });
});
