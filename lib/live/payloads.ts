import type { LiveEvent } from "./bus";

export const LIVE_CHANNEL = "fundboard_live";

// Postgres refuses NOTIFY payloads of 8000 bytes or more.
const MAX_PAYLOAD_BYTES = 7_000;

/** Events as NOTIFY payloads: JSON arrays, each under the size limit. */
export function toPayloads(events: readonly LiveEvent[]): string[] {
  const payloads: string[] = [];
  let current: string[] = [];
  let size = 2;
  for (const event of events) {
    const text = JSON.stringify(event);
    if (current.length > 0 && size + text.length + 1 > MAX_PAYLOAD_BYTES) {
      payloads.push(`[${current.join(",")}]`);
      current = [];
      size = 2;
    }
    current.push(text);
    size += text.length + 1;
  }
  if (current.length > 0) payloads.push(`[${current.join(",")}]`);
  return payloads;
}

/** A payload from any instance: an array of events, or one event (older instances during a rolling deploy). */
export function parsePayload(payload: string): LiveEvent[] {
  const value = JSON.parse(payload) as LiveEvent | LiveEvent[];
  return Array.isArray(value) ? value : [value];
}
