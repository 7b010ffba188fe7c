"use client";

import { useState } from "react";
import { useForm, useWatch } from "react-hook-form";
import type { z } from "zod";

import { Button } from "@/components/ui/button";
import { Field, inputClass } from "@/components/ui/field";
import { EVENT_TYPES } from "@/lib/client/events/catalogue";
import { lazyZodResolver } from "@/lib/client/forms/lazy-resolver";
import { showServerFieldErrors } from "@/lib/client/forms/server-errors";
import { ApiError, apiFetchWithMessage } from "@/lib/client/http/api-fetch";
import type { EndpointView, endpointFormSchema } from "@/lib/client/outbound/schemas";
import { ReadyFieldset } from "@/components/ui/ready-fieldset";

// Adds an outgoing webhook endpoint (POST /api/webhook-endpoints); the answer's secret is shown once, by the screen.

type FormInput = z.input<typeof endpointFormSchema>;
type FormOutput = z.output<typeof endpointFormSchema>;
const EMPTY: FormInput = { url: "", description: "", allEvents: true, types: [] };

export function AddEndpointForm({ onAdded }: { onAdded: (endpoint: EndpointView & { secret: string }) => void }) {
  const [error, setError] = useState<string | null>(null);
  const form = useForm<FormInput, unknown, FormOutput>({
    resolver: lazyZodResolver(() => import("@/lib/client/outbound/schemas").then((m) => m.endpointFormSchema)),
    defaultValues: EMPTY,
  });
  const { errors, isSubmitting } = form.formState;
  const allEvents = useWatch({ control: form.control, name: "allEvents" });

  async function onSubmit(values: FormOutput) {
    setError(null);
    try {
      const { data } = await apiFetchWithMessage<EndpointView & { secret: string }>("/api/webhook-endpoints", { method: "POST", json: values });
      form.reset(EMPTY);
      onAdded(data);
    } catch (e) {
      if (e instanceof ApiError) {
        const beside = showServerFieldErrors(form.setError, e.fieldErrors, ["url", "description"]);
        setError(beside ? null : e.message);
      } else setError("The endpoint could not be added. Try again.");
    }
  }

  return (
    <form onSubmit={form.handleSubmit(onSubmit)} noValidate className="space-y-4" aria-label="Add a webhook endpoint">
      <ReadyFieldset className="space-y-4">
        <Field id="endpoint-url" label="URL" hint="Where the events are POSTed: https in live mode." error={errors.url?.message}>
          <input
            id="endpoint-url"
            type="url"
            inputMode="url"
            className={inputClass}
            aria-invalid={errors.url ? true : undefined}
            aria-describedby={errors.url ? "endpoint-url-error" : "endpoint-url-hint"}
            {...form.register("url")}
          />
        </Field>
        <Field id="endpoint-description" label="Description (optional)" error={errors.description?.message}>
          <input id="endpoint-description" className={inputClass} {...form.register("description")} />
        </Field>
        <fieldset className="space-y-2">
          <legend className="text-sm font-medium text-slate-700">Events</legend>
          <label className="flex items-center gap-2 text-sm">
            <input type="checkbox" {...form.register("allEvents")} />
            All events, including types added later
          </label>
          {allEvents ? null : (
            <div className="grid gap-1 sm:grid-cols-2">
              {EVENT_TYPES.map((type) => (
                <label key={type} className="flex items-center gap-2 text-sm">
                  <input type="checkbox" value={type} {...form.register("types")} />
                  <code>{type}</code>
                </label>
              ))}
            </div>
          )}
          {errors.types?.message ? (
            <p role="alert" className="text-sm text-red-700">
              {errors.types.message}
            </p>
          ) : null}
        </fieldset>
        <div className="flex flex-wrap items-center gap-3">
          <Button type="submit" disabled={isSubmitting}>
            {isSubmitting ? "Adding…" : "Add endpoint"}
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
