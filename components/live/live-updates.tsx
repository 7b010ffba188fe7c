"use client";

import { useQueryClient, type QueryKey } from "@tanstack/react-query";
import { useEffect, useState } from "react";

import { LIVE_EVENT_TYPES, fallbackEffect, liveEffect, parseLiveEvent } from "@/lib/client/live/effects";

type State = "connecting" | "open" | "reconnecting";

// A burst of events (a run of webhooks) becomes one refetch per query, not one per event.
const INVALIDATE_AFTER_MS = 250;
/** One EventSource per tab: each event invalidates exactly the queries it names (lib/client/live/effects.ts); nothing polls. */
export function LiveUpdates() {
  const client = useQueryClient();
  const [state, setState] = useState<State>("connecting");

  useEffect(() => {
    let source: EventSource | null = null;
    let attempt = 0;
    let timer: ReturnType<typeof setTimeout> | null = null;
    let closed = false;
    const pending = new Map<string, QueryKey>();
    let flushTimer: ReturnType<typeof setTimeout> | null = null;

    const invalidate = (...queryKeys: QueryKey[]) => {
      for (const key of queryKeys) pending.set(JSON.stringify(key), key);
      flushTimer ??= setTimeout(() => {
        flushTimer = null;
        const keysNow = [...pending.values()];
        pending.clear();
        for (const queryKey of keysNow) void client.invalidateQueries({ queryKey });
      }, INVALIDATE_AFTER_MS);
    };

    const connect = () => {
      source = new EventSource("/api/live");
      source.onopen = () => {
        attempt = 0;
        setState("open");
        // Anything that changed while we were away.
        void client.invalidateQueries();
      };
      for (const type of LIVE_EVENT_TYPES) {
        source.addEventListener(type, (message) => {
          const event = parseLiveEvent(type, message.data);
          invalidate(...(event ? liveEffect(event) : fallbackEffect(type)));
        });
      }
      source.onerror = () => {
        source?.close();
        if (closed) return;
        setState("reconnecting");
        // Backoff with jitter so a restarted server is not hit by every tab at once.
        const delay = Math.min(30_000, 1_000 * 2 ** attempt) * (0.5 + Math.random() / 2);
        attempt += 1;
        timer = setTimeout(connect, delay);
      };
    };
    connect();
    return () => {
      closed = true;
      for (const t of [timer, flushTimer]) if (t) clearTimeout(t);
      source?.close();
    };
  }, [client]);

  return (
    <span data-testid="live-status" data-state={state} className="inline-flex items-center gap-1 text-xs text-slate-600" aria-live="polite">
      <span aria-hidden="true" className={`h-2 w-2 rounded-full ${state === "open" ? "bg-green-600" : "bg-amber-500"}`} />
      {state === "open" ? "Live" : state === "connecting" ? "Connecting…" : "Reconnecting…"}
    </span>
  );
}
