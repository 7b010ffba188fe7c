"use client";

import { useState } from "react";

import { Button } from "@/components/ui/button";
import { ErrorNote } from "@/components/ui/error-panel";
import { Field, inputClass } from "@/components/ui/field";
import { ApiError, apiFetchWithMessage } from "@/lib/client/http/api-fetch";

interface Policy {
  declineCooldownHours: number;
  maxAsksPerTag: number;
}

/** The chasing policy (PATCH /api/settings; DESIGN §12): the server checks the same rule and audits the change. */
export function ChasingPolicy({ initial }: { initial: Policy }) {
  const [cooldown, setCooldown] = useState(String(initial.declineCooldownHours));
  const [asks, setAsks] = useState(String(initial.maxAsksPerTag));
  const [message, setMessage] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  async function save() {
    setSaving(true);
    setError(null);
    try {
      const { data, message: said } = await apiFetchWithMessage<Policy>("/api/settings", {
        method: "PATCH",
        json: { declineCooldownHours: Number(cooldown), maxAsksPerTag: Number(asks) },
      });
      setCooldown(String(data.declineCooldownHours));
      setAsks(String(data.maxAsksPerTag));
      setMessage(said);
    } catch (e) {
      setError(e instanceof ApiError ? e.message : "The policy did not save. Try again.");
    } finally {
      setSaving(false);
    }
  }
  return (
    <section aria-labelledby="chasing-heading" className="space-y-3">
      <h2 id="chasing-heading" className="text-lg font-semibold">
        Chasing policy
      </h2>
      <p className="text-sm text-slate-700">Who an &ldquo;Ask again&rdquo; round leaves out, so nobody is pestered.</p>
      <form
        className="flex flex-wrap items-end gap-3"
        onSubmit={(e) => {
          e.preventDefault();
          void save();
        }}
      >
        <Field id="policy-cooldown" label="Hours before asking someone who declined">
          <input id="policy-cooldown" type="number" min={0} max={8760} className={inputClass} value={cooldown} onChange={(e) => setCooldown(e.target.value)} />
        </Field>
        <Field id="policy-asks" label="Most asks of one person in a campaign and its rounds">
          <input id="policy-asks" type="number" min={1} max={20} className={inputClass} value={asks} onChange={(e) => setAsks(e.target.value)} />
        </Field>
        <Button type="submit" disabled={saving}>
          {saving ? "Saving…" : "Save policy"}
        </Button>
      </form>
      <p aria-live="polite" className="text-sm text-slate-700">
        {message}
      </p>
      {error ? <ErrorNote role="alert">{error}</ErrorNote> : null}
    </section>
  );
}
