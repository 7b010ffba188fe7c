import "server-only";

import { EventEmitter } from "node:events";
import { safeErrorSummary } from "@/lib/log/safe-error";
import { processSingleton } from "@/lib/util/process-singleton";

// Each event carries the ids a browser needs to invalidate exactly what changed (lib/client/live/effects.ts) and
// nothing else, except `status` and `verification`, which the hardening tests and benches wait for.
export type LiveEvent =
  /** A fund request's status moved. `requestId` is null while it is being sent; `campaignId` when a campaign row sent it. */
  | { type: "request.updated"; requestId: string | null; campaignId: string | null; status: string }
  /** A payment was recorded (never linked yet: linking is its follow-up job, which publishes `request.updated`). */
  | { type: "payment.recorded"; uuid: string }
  /** A payment was linked to its request or verified. */
  | { type: "payment.updated"; uuid: string; verification: string }
  | { type: "balance.changed" }
  /** A campaign's status, rows or sender changed. */
  | { type: "campaign.progress"; campaignId: string }
  /** An exception was opened, closed by itself, resolved or reopened (lib/exceptions). */
  | { type: "exceptions.changed" };

type Transport = (event: LiveEvent) => void;

interface BusState {
  emitter: EventEmitter;
  // Replaced by the Postgres NOTIFY transport when there is one; in-process otherwise.
  transport: Transport | null;
}

function state(): BusState {
  return processSingleton<BusState>("live-bus", () => {
    const emitter = new EventEmitter();
    emitter.setMaxListeners(0);
    return { emitter, transport: null };
  });
}

/** Tells every listening browser (on every instance, when a transport is set). Never throws. */
export function publish(event: LiveEvent): void {
  const s = state();
  try {
    if (s.transport) s.transport(event);
    else s.emitter.emit("event", event);
  } catch (error) {
    console.error(`[live] publish failed: ${safeErrorSummary(error)}`);
  }
}

/** Delivers an event that arrived from the transport to this process's listeners. */
export function deliverLocally(event: LiveEvent): void {
  state().emitter.emit("event", event);
}

export function setTransport(transport: Transport | null): void {
  state().transport = transport;
}

export function subscribe(listener: (event: LiveEvent) => void): () => void {
  const { emitter } = state();
  emitter.on("event", listener);
  return () => emitter.off("event", listener);
}
