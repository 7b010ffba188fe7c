import { describe, expect, it } from "vitest";

import type { LiveEvent } from "./bus";
import { parsePayload, toPayloads } from "./payloads";

describe("NOTIFY payloads", () => {
  it("packs a burst into few payloads, each under Postgres's 8000-byte limit, losing and reordering nothing", () => {
    const events: LiveEvent[] = Array.from({ length: 500 }, (_, i) => ({ type: "payment.recorded", uuid: `${i}-${"u".repeat(36)}` }));
    const payloads = toPayloads(events);
    expect(payloads.length).toBeGreaterThan(1);
    expect(payloads.length).toBeLessThan(15);
    for (const p of payloads) expect(Buffer.byteLength(p)).toBeLessThan(8000);
    expect(payloads.flatMap(parsePayload)).toEqual(events);
  });

  it("sends nothing for no events, and reads a single event as sent by an older instance", () => {
    expect(toPayloads([])).toEqual([]);
    expect(parsePayload(JSON.stringify({ type: "balance.changed" }))).toEqual([{ type: "balance.changed" }]);
  });
});
