"use client";

import { useState } from "react";
import { useForm } from "react-hook-form";
import type { z } from "zod";

import { Button } from "@/components/ui/button";
import { Field, inputClass } from "@/components/ui/field";
import { EVENT_TYPES } from "@/lib/client/events/catalogue";
import { lazyZodResolver } from "@/lib/client/forms/lazy-resolver";
import { showServerFieldErrors } from "@/lib/client/forms/server-errors";
import { ApiError, apiFetchWithMessage } from "@/lib/client/http/api-fetch";
import { CHANNEL_LABELS, CHANNELS, EVENT_LABELS, type NotificationPreferences } from "@/lib/client/notifications/preferences";
import type { preferencesFormSchema } from "@/lib/client/notifications/preferences-schema";
import { ReadyFieldset } from "@/components/ui/ready-fieldset";

// The account page's notification settings (PUT /api/me/notifications, one zod schema with the route): per event type
// off / dashboard / e-mail at once / the daily digest, the payment threshold and the digest itself.

type FormInput = z.input<typeof preferencesFormSchema>;
type FormOutput = z.output<typeof preferencesFormSchema>;

const asInput = (p: NotificationPreferences): FormInput => ({
  channels: EVENT_TYPES.map((t) => p.choices[t]),
  paymentThreshold: p.paymentThreshold ?? "",
  digest: p.digest,
});

export function PreferencesForm({ initial }: { initial: NotificationPreferences }) {
  const [message, setMessage] = useState<{ kind: "ok" | "error"; text: string } | null>(null);
  const form = useForm<FormInput, unknown, FormOutput>({
    resolver: lazyZodResolver(() => import("@/lib/client/notifications/preferences-schema").then((m) => m.preferencesFormSchema)),
    defaultValues: asInput(initial),
  });
  const { errors, isSubmitting } = form.formState;

  async function onSubmit(values: FormOutput) {
    setMessage(null);
    try {
      const { data, message: said } = await apiFetchWithMessage<NotificationPreferences>("/api/me/notifications", { method: "PUT", json: values });
      form.reset(asInput(data));
      setMessage({ kind: "ok", text: said });
    } catch (error) {
      if (error instanceof ApiError) {
        const beside = showServerFieldErrors(form.setError, error.fieldErrors, ["paymentThreshold", "digest"]);
        setMessage(beside ? null : { kind: "error", text: error.message });
      } else setMessage({ kind: "error", text: "Your notification settings could not be saved. Try again." });
    }
  }

  const thresholdError = errors.paymentThreshold?.message;
  const digestError = errors.digest?.message;
  return (
    <form onSubmit={form.handleSubmit(onSubmit)} noValidate className="space-y-4" data-testid="notification-preferences" aria-label="Notification settings">
      <ReadyFieldset className="space-y-4">
        <div className="grid gap-3 sm:grid-cols-2">
          {EVENT_TYPES.map((type, i) => (
            <Field key={type} id={`notify-${type}`} label={EVENT_LABELS[type]}>
              <select id={`notify-${type}`} className={inputClass} {...form.register(`channels.${i}`)}>
                {CHANNELS.map((c) => (
                  <option key={c} value={c}>
                    {CHANNEL_LABELS[c]}
                  </option>
                ))}
              </select>
            </Field>
          ))}
        </div>
        <Field id="paymentThreshold" label="Tell me of a payment only from (₦)" hint="Leave empty to hear of every payment." error={thresholdError}>
          <input
            id="paymentThreshold"
            inputMode="decimal"
            className={inputClass}
            aria-invalid={thresholdError ? true : undefined}
            aria-describedby={thresholdError ? "paymentThreshold-error" : "paymentThreshold-hint"}
            {...form.register("paymentThreshold")}
          />
        </Field>
        <div>
          <label className="flex items-center gap-2 text-sm text-slate-800">
            <input
              type="checkbox"
              aria-invalid={digestError ? true : undefined}
              aria-describedby={digestError ? "digest-error" : undefined}
              {...form.register("digest")}
            />
            The daily digest by e-mail at 08:00: yesterday&apos;s day book, open exceptions, declines and top payers
          </label>
          {digestError ? (
            <p id="digest-error" role="alert" className="mt-1 text-sm text-red-700">
              {digestError}
            </p>
          ) : null}
        </div>
        <div className="flex flex-wrap items-center gap-3">
          <Button type="submit" disabled={isSubmitting}>
            {isSubmitting ? "Saving…" : "Save notification settings"}
          </Button>
        </div>
        <p
          aria-live="polite"
          data-testid="notification-preferences-saved"
          className={message?.kind === "error" ? "text-sm text-red-700" : "text-sm text-green-800"}
        >
          {message?.text}
        </p>
      </ReadyFieldset>
    </form>
  );
}
