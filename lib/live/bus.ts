import "server-only";

import { EventEmitter } from "node:events";
import { safeErrorSummary } from "@/lib/log/safe-error";
import { processSingleton } from "@/lib/util/process-singleton";

export type LiveEvent =
  | { type: "request.updated"; id: string; requestId: string | null; status: string }
  | { type: "payment.recorded"; uuid: string; requestId: string | null }
  | { type: "payment.updated"; uuid: string; verification: string }
  | { type: "balance.changed" }
  | { type: "campaign.progress"; id: string };

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
