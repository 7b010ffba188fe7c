"use client";

import { useState } from "react";
import { useController, useForm } from "react-hook-form";
import type { z } from "zod";

import { Button } from "@/components/ui/button";
import { Field, inputClass } from "@/components/ui/field";
import type { ApiKeyCreated, DEFAULT_EXPIRY_DAYS, KeyPreset, MAX_EXPIRY_DAYS, apiKeyCreateSchema } from "@/lib/client/api-keys/schemas";
import { API_SCOPES, type ApiScope } from "@/lib/client/auth/permissions";
import { lazyZodResolver } from "@/lib/client/forms/lazy-resolver";
import { showServerFieldErrors } from "@/lib/client/forms/server-errors";
import { ApiError, apiFetchWithMessage } from "@/lib/client/http/api-fetch";

import { presetScopes } from "@/lib/client/api-keys/presets";

import { PRESET_WORDS } from "./scopes";
import { ReadyFieldset } from "@/components/ui/ready-fieldset";

// "Make a key" on /developers/api-keys (POST /api/api-keys): a name, a preset or hand-picked scopes, and the days
// until it expires. The answer's whole key is shown once, by the screen. The form's values are the handler's body,
// checked with its own schema (docs/architecture.md "Forms").

type FormInput = z.input<typeof apiKeyCreateSchema>;
type FormOutput = z.output<typeof apiKeyCreateSchema>;

// The schema's own numbers, typed against it: its module (and zod) loads only with the form's first check.
const DEFAULT_DAYS: typeof DEFAULT_EXPIRY_DAYS = 90;
const MAX_DAYS: typeof MAX_EXPIRY_DAYS = 365;
const EMPTY: FormInput = { name: "", scopes: "everything", expiresInDays: DEFAULT_DAYS };

type Choice = KeyPreset | "custom";
const CHOICES: { value: Choice; label: string; hint: string }[] = [
  { value: "everything", ...PRESET_WORDS.everything },
  { value: "read_only", ...PRESET_WORDS.read_only },
  { value: "custom", label: "Choose scopes", hint: "Only the ones ticked below" },
];

export function CreateKeyForm({ onCreated }: { onCreated: (created: ApiKeyCreated, message: string) => void }) {
  const [error, setError] = useState<string | null>(null);
  const form = useForm<FormInput, unknown, FormOutput>({
    resolver: lazyZodResolver(() => import("@/lib/client/api-keys/schemas").then((m) => m.apiKeyCreateSchema)),
    defaultValues: EMPTY,
  });
  const { errors, isSubmitting } = form.formState;
  // The scopes are a preset's name or a list: the radios and the boxes both edit this one value.
  const { field: scopes } = useController({ control: form.control, name: "scopes" });
  const choice: Choice = Array.isArray(scopes.value) ? "custom" : scopes.value;
  const picked: readonly ApiScope[] = Array.isArray(scopes.value) ? scopes.value : [];

  function choose(next: Choice) {
    if (next === choice) return;
    // Hand-picking starts from the preset that was chosen, so "everything but one" is one untick.
    scopes.onChange(next === "custom" ? presetScopes(choice === "custom" ? "read_only" : choice) : next);
  }

  function toggle(scope: ApiScope, on: boolean) {
    scopes.onChange(on ? API_SCOPES.filter((s) => s === scope || picked.includes(s)) : picked.filter((s) => s !== scope));
  }

  async function onSubmit(values: FormOutput) {
    setError(null);
    try {
      const { data, message } = await apiFetchWithMessage<ApiKeyCreated>("/api/api-keys", { method: "POST", json: values });
      form.reset(EMPTY);
      onCreated(data, message);
    } catch (e) {
      if (e instanceof ApiError) {
        const beside = showServerFieldErrors(form.setError, e.fieldErrors, ["name", "scopes", "expiresInDays"]);
        setError(beside ? null : e.message);
      } else setError("The key could not be made. Try again.");
    }
  }

  const scopesError = errors.scopes?.message ?? (Array.isArray(errors.scopes) ? errors.scopes.find(Boolean)?.message : undefined);
  return (
    <form onSubmit={form.handleSubmit(onSubmit)} noValidate className="space-y-4" aria-label="Make an API key">
      <ReadyFieldset className="space-y-4">
        <Field id="key-name" label="Name" hint="What uses it: “Our ERP”, “Zapier”. People see it in the audit log." error={errors.name?.message}>
          <input
            id="key-name"
            className={inputClass}
            autoComplete="off"
            aria-invalid={errors.name ? true : undefined}
            aria-describedby={errors.name ? "key-name-error" : "key-name-hint"}
            {...form.register("name")}
          />
        </Field>
        <fieldset className="space-y-2" aria-describedby={scopesError ? "key-scopes-error" : undefined}>
          <legend className="text-sm font-medium text-slate-700">Access</legend>
          {CHOICES.map((c, index) => (
            <label key={c.value} className="flex items-start gap-2 text-sm">
              <input
                type="radio"
                name="key-access"
                value={c.value}
                className="mt-0.5"
                checked={choice === c.value}
                onChange={() => choose(c.value)}
                ref={index === 0 ? scopes.ref : undefined}
              />
              <span>
                <span className="font-medium">{c.label}</span> <span className="text-slate-600">— {c.hint}</span>
              </span>
            </label>
          ))}
          {choice === "custom" ? (
            <div className="grid gap-1 pl-6 sm:grid-cols-2" role="group" aria-label="Scopes">
              {API_SCOPES.map((scope) => (
                <label key={scope} className="flex items-center gap-2 text-sm">
                  <input type="checkbox" value={scope} checked={picked.includes(scope)} onChange={(e) => toggle(scope, e.target.checked)} />
                  <code>{scope}</code>
                </label>
              ))}
            </div>
          ) : null}
          {scopesError ? (
            <p id="key-scopes-error" role="alert" className="text-sm text-red-700">
              {scopesError}
            </p>
          ) : null}
        </fieldset>
        <Field
          id="key-expiry"
          label="Expires after (days)"
          hint={`1 to ${MAX_DAYS}; ${DEFAULT_DAYS} unless you change it.`}
          error={errors.expiresInDays?.message}
        >
          <input
            id="key-expiry"
            type="number"
            inputMode="numeric"
            min={1}
            max={MAX_DAYS}
            step={1}
            className={`${inputClass} max-w-32`}
            aria-invalid={errors.expiresInDays ? true : undefined}
            aria-describedby={errors.expiresInDays ? "key-expiry-error" : "key-expiry-hint"}
            {...form.register("expiresInDays", { valueAsNumber: true })}
          />
        </Field>
        <div className="flex flex-wrap items-center gap-3">
          <Button type="submit" disabled={isSubmitting}>
            {isSubmitting ? "Making…" : "Make key"}
          </Button>
        </div>
        {error ? (
          <p role="alert" className="text-sm text-red-700">
            {error}
          </p>
        ) : null}
      </ReadyFieldset>
    </form>
  );
}
