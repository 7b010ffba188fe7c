"use client";

import { useQueryClient } from "@tanstack/react-query";
import { useEffect, useState } from "react";

import { keys } from "@/lib/queries";

type State = "connecting" | "open" | "reconnecting";

/** One EventSource per tab: each event invalidates the queries it affects; nothing polls. */
export function LiveUpdates() {
  const client = useQueryClient();
  const [state, setState] = useState<State>("connecting");

  useEffect(() => {
    let source: EventSource | null = null;
    let attempt = 0;
    let timer: ReturnType<typeof setTimeout> | null = null;
    let closed = false;

    const connect = () => {
      source = new EventSource("/api/live");
      source.onopen = () => {
        attempt = 0;
        setState("open");
        // Anything that changed while we were away.
        void client.invalidateQueries();
      };
      source.addEventListener("request.updated", () => void client.invalidateQueries({ queryKey: keys.requests }));
      const paymentChanged = () => {
        void client.invalidateQueries({ queryKey: keys.payments });
        void client.invalidateQueries({ queryKey: keys.requests });
      };
      source.addEventListener("payment.recorded", paymentChanged);
      source.addEventListener("payment.updated", paymentChanged);
      source.addEventListener("balance.changed", () => void client.invalidateQueries({ queryKey: keys.balance }));
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
      if (timer) clearTimeout(timer);
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
