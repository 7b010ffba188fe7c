import "server-only";

import { EventEmitter } from "node:events";
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
  | { type: "exceptions.changed" }
  /** A notification for one person (lib/notifications): /api/live sends it to that person's streams only. */
  | { type: "notification.created"; staffId: string; id: string };

interface BusState {
  emitter: EventEmitter;
}

function state(): BusState {
  return processSingleton<BusState>("live-bus", () => {
    const emitter = new EventEmitter();
    emitter.setMaxListeners(0);
    return { emitter };
  });
}

/** Hands an event the listener heard (lib/live/listen.ts) to this process's streams. Events are sent by lib/live/notify.ts, inside the change's transaction. */
export function deliverLocally(event: LiveEvent): void {
  state().emitter.emit("event", event);
}

export function subscribe(listener: (event: LiveEvent) => void): () => void {
  const { emitter } = state();
  emitter.on("event", listener);
  return () => emitter.off("event", listener);
}

/** A person's streams: every event but another person's notifications (docs/architecture.md "Live updates"). */
export function subscribeFor(staffId: string, listener: (event: LiveEvent) => void): () => void {
  return subscribe((event) => {
    if (event.type === "notification.created" && event.staffId !== staffId) return;
    listener(event);
  });
}
