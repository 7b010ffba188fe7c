import { describe, expect, it } from "vitest";

import type { BusinessEvent } from "@/lib/client/events/catalogue";

import { bodyBytes, deliveryBody } from "./body";
import { BODY_LIMIT_BYTES } from "./sign";

const event = (data: Record<string, unknown>): BusinessEvent => ({
  id: "evt_01JTESTBODYLIMIT0000000000",
  type: "payment.received",
  createdAt: "2026-11-28T10:00:00.000Z",
  data,
});

/** An event whose JSON is exactly `bytes` long (UTF-8), its padding made of `unit`. */
function eventOfBytes(bytes: number, unit = "x"): BusinessEvent {
  const base = event({ uuid: "u-1", note: "" });
  const room = bytes - bodyBytes(JSON.stringify(base));
  const unitBytes = Buffer.byteLength(unit, "utf8");
  if (room < 0 || room % unitBytes !== 0) throw new Error(`cannot pad to ${bytes} bytes with ${unit}`);
  return event({ uuid: "u-1", note: unit.repeat(room / unitBytes) });
}

describe("an outgoing delivery's body", () => {
  it("is the event's JSON, byte for byte, up to and at 64 KiB", () => {
    const small = event({ uuid: "u-1", actualAmount: "5000.00" });
    expect(deliveryBody(small)).toBe(JSON.stringify(small));
    const atLimit = eventOfBytes(BODY_LIMIT_BYTES);
    expect(bodyBytes(JSON.stringify(atLimit))).toBe(BODY_LIMIT_BYTES);
    expect(deliveryBody(atLimit)).toBe(JSON.stringify(atLimit));
  });

  it("cuts a larger event's data down to its identifying fields with truncated: true, keeping its id, type and time", () => {
    const large = event({
      uuid: "00000000-0000-4000-8000-000000000009",
      requestId: "1000000001",
      tag: "ada.obi",
      status: "verified",
      amount: "5000.00",
      description: "y".repeat(100 * 1024),
      customer: { name: "Ada", tag: "ada.obi" },
      reference: "r".repeat(500),
    });
    const body = deliveryBody(large);
    expect(bodyBytes(body)).toBeLessThanOrEqual(BODY_LIMIT_BYTES);
    expect(JSON.parse(body)).toEqual({
      id: large.id,
      type: large.type,
      createdAt: large.createdAt,
      // A long string and an object are left out even under an identifying name; the amount is not identifying.
      data: { uuid: "00000000-0000-4000-8000-000000000009", requestId: "1000000001", tag: "ada.obi", status: "verified", truncated: true },
    });
  });

  it("counts the limit in UTF-8 bytes, not characters", () => {
    // 40,000 two-byte characters: about 39 K characters of JSON but over 78 KiB on the wire.
    const wide = event({ uuid: "u-2", note: "é".repeat(40_000) });
    expect(JSON.stringify(wide).length).toBeLessThan(BODY_LIMIT_BYTES);
    expect(JSON.parse(deliveryBody(wide))).toMatchObject({ data: { uuid: "u-2", truncated: true } });
    // One byte over the limit is cut; at the limit it is whole.
    const over = eventOfBytes(BODY_LIMIT_BYTES + 1);
    expect(JSON.parse(deliveryBody(over))).toMatchObject({ data: { uuid: "u-1", truncated: true } });
  });
});
