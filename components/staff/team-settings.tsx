"use client";

import { useState } from "react";

import { cardClasses } from "@/components/ui/card";
import { ErrorNote } from "@/components/ui/error-panel";
import { ApiError, apiFetchWithMessage } from "@/lib/client/http/api-fetch";

/** Admins' team-wide settings: for now, whether everyone must use two-step sign-in. */
export function TeamSettings({ require2fa, selfHasTwoStep }: { require2fa: boolean; selfHasTwoStep: boolean }) {
  const [value, setValue] = useState(require2fa);
  const [pending, setPending] = useState(false);
  const [message, setMessage] = useState<{ kind: "ok" | "error"; text: string } | null>(null);

  async function change(next: boolean) {
    setMessage(null);
    setPending(true);
    setValue(next);
    try {
      const { data, message: said } = await apiFetchWithMessage<{ require2fa: boolean }>("/api/settings", { method: "PATCH", json: { require2fa: next } });
      setValue(data.require2fa);
      setMessage({ kind: "ok", text: said || "Saved." });
    } catch (e) {
      setValue(!next);
      setMessage({ kind: "error", text: e instanceof ApiError ? e.message : "The setting could not be saved. Try again." });
    } finally {
      setPending(false);
    }
  }

  return (
    <section aria-labelledby="team-settings" className={cardClasses("space-y-3 p-4")}>
      <h2 id="team-settings" className="text-lg font-semibold">
        Team settings
      </h2>
      <div className="flex items-start gap-3">
        <input
          id="require2fa"
          type="checkbox"
          checked={value}
          disabled={pending}
          onChange={(e) => void change(e.target.checked)}
          aria-describedby="require2fa-hint"
          className="mt-0.5 size-4 rounded border-slate-300 accent-brand-600"
        />
        <div>
          <label htmlFor="require2fa" className="text-sm font-medium text-slate-900">
            Require two-step sign-in for everyone
          </label>
          <p id="require2fa-hint" className="text-sm text-slate-600">
            People without it are taken to set it up at their next page, and can open nothing else until they have. Nobody is signed out.
            {selfHasTwoStep ? "" : " Turn on your own two-step sign-in first (on your account page): until then this cannot be switched on."}
          </p>
        </div>
      </div>
      <p aria-live="polite" className="text-sm text-green-800" data-testid="team-settings-message">
        {message?.kind === "ok" ? message.text : null}
      </p>
      {message?.kind === "error" ? <ErrorNote role="alert">{message.text}</ErrorNote> : null}
    </section>
  );
}
