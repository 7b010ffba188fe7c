"use client";

// The payer's status link: the server's first answer, then a plain-fetch poll every 2 s until paid or declined,
// announced through a live region; no react-query on public pages (docs/architecture.md "Pay pages").
import { useEffect, useState } from "react";

import type { PayStatusView } from "@/lib/client/pay-pages/view";

import { retryAfterSeconds } from "./answers";
import { nairaText } from "./naira";

const POLL_MS = 2_000;
// A page left open: after ten minutes of waiting, ask less often.
const SLOW_AFTER_MS = 10 * 60_000;
const SLOW_POLL_MS = 15_000;
const STATES: readonly string[] = ["waiting", "paid", "declined"];

function isStatus(value: unknown): value is PayStatusView {
  if (typeof value !== "object" || value === null) return false;
  const v = value as Record<string, unknown>;
  return typeof v.state === "string" && STATES.includes(v.state) && typeof v.title === "string" && typeof v.amount === "string";
}

function headline(view: PayStatusView): string {
  switch (view.state) {
    case "waiting":
      return `Approve ${nairaText(view.amount)} in your app`;
    case "paid":
      return view.successMessage ?? "Paid, thank you.";
    case "declined":
      return "You declined this request. Nothing was paid.";
  }
}

export function PayStatus({ slug, token, initial }: { slug: string; token: string; initial: PayStatusView }) {
  const [view, setView] = useState(initial);

  useEffect(() => {
    if (view.state !== "waiting") return;
    const url = `/api/public/pay/${encodeURIComponent(slug)}/s/${encodeURIComponent(token)}`;
    const started = Date.now();
    let stopped = false;
    let timer: number | undefined;
    async function poll() {
      let wait = Date.now() - started > SLOW_AFTER_MS ? SLOW_POLL_MS : POLL_MS;
      // A hidden tab does not ask; it asks again within one interval of being looked at.
      if (document.visibilityState !== "hidden") {
        try {
          const response = await fetch(url, { headers: { Accept: "application/json" }, cache: "no-store" });
          // The link is gone (or never was): nothing will change by asking again.
          if (response.status === 404) return;
          if (response.status === 429) wait = Math.max(wait, (retryAfterSeconds(response) ?? 10) * 1000);
          const body: unknown = response.ok ? await response.json() : null;
          const next = typeof body === "object" && body !== null && "data" in body ? body.data : null;
          if (!stopped && isStatus(next)) {
            setView(next);
            if (next.state !== "waiting") return;
          }
        } catch {
          // Offline for a moment: the next poll tries again.
        }
      }
      if (!stopped) timer = window.setTimeout(poll, wait);
    }
    timer = window.setTimeout(poll, POLL_MS);
    return () => {
      stopped = true;
      window.clearTimeout(timer);
    };
  }, [slug, token, view.state]);

  return (
    <div role="status" aria-live="polite" aria-atomic="true">
      <h1 className="text-2xl font-semibold text-slate-900">{headline(view)}</h1>
      {view.state === "waiting" ? (
        <>
          <p className="mt-3 text-base text-slate-700">
            {view.businessName} asked for {nairaText(view.amount)} for {view.title}. Open your payment app and approve the request; this page updates by itself.
          </p>
          <p className="mt-4 rounded-lg bg-slate-100 p-3 text-sm text-slate-700">
            No request in your app after a few minutes? Check the tag you typed and try again later.
          </p>
        </>
      ) : null}
      {view.state === "paid" ? (
        <p className="mt-3 text-base text-slate-700">
          {nairaText(view.amount)} to {view.businessName} for {view.title}.
        </p>
      ) : null}
      {view.state === "paid" && view.plan ? (
        <p className="mt-3 text-base text-slate-700">You are now a member of {view.plan}: its next requests come to your app.</p>
      ) : null}
    </div>
  );
}
