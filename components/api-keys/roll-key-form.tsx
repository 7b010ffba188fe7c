"use client";

import { useEffect, useRef, useState } from "react";
import { useForm } from "react-hook-form";
import type { z } from "zod";

import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { Field, inputClass } from "@/components/ui/field";
import type { ApiKeyCreated, ApiKeyView, ROLL_OVERLAPS, apiKeyRollSchema } from "@/lib/client/api-keys/schemas";
import { lazyZodResolver } from "@/lib/client/forms/lazy-resolver";
import { showServerFieldErrors } from "@/lib/client/forms/server-errors";
import { ApiError, apiFetchWithMessage } from "@/lib/client/http/api-fetch";
import { ReadyFieldset } from "@/components/ui/ready-fieldset";

// Rolling a key (POST /api/api-keys/:id/roll): a new key with the same name and scopes, shown once by the screen;
// the old one keeps working for the overlap chosen here, so a deployment switches without a gap.

type FormInput = z.input<typeof apiKeyRollSchema>;
type FormOutput = z.output<typeof apiKeyRollSchema>;

const OVERLAPS: { hours: (typeof ROLL_OVERLAPS)[number]; label: string }[] = [
  { hours: 0, label: "Not at all: it stops now" },
  { hours: 1, label: "1 hour" },
  { hours: 24, label: "24 hours" },
  { hours: 168, label: "7 days" },
];

export function RollKeyForm({
  apiKey,
  onRolled,
  onCancel,
}: {
  apiKey: ApiKeyView;
  onRolled: (made: ApiKeyCreated, message: string) => void;
  onCancel: () => void;
}) {
  const [error, setError] = useState<string | null>(null);
  const heading = useRef<HTMLHeadingElement>(null);
  const form = useForm<FormInput, unknown, FormOutput>({
    resolver: lazyZodResolver(() => import("@/lib/client/api-keys/schemas").then((m) => m.apiKeyRollSchema)),
    defaultValues: { overlapHours: 24 },
  });
  const { errors, isSubmitting } = form.formState;
  // The screen keys this panel by the key rolled: focus lands on it each time it opens.
  useEffect(() => heading.current?.focus(), []);

  async function onSubmit(values: FormOutput) {
    setError(null);
    try {
      const { data, message } = await apiFetchWithMessage<ApiKeyCreated>(`/api/api-keys/${encodeURIComponent(apiKey.id)}/roll`, {
        method: "POST",
        json: values,
      });
      onRolled(data, message);
    } catch (e) {
      if (e instanceof ApiError) {
        const beside = showServerFieldErrors(form.setError, e.fieldErrors, ["overlapHours"]);
        setError(beside ? null : e.message);
      } else setError("The key could not be rolled. Try again.");
    }
  }

  return (
    <Card as="section" aria-labelledby="roll-key-heading" className="space-y-3 p-4" data-testid="roll-key">
      <h2 id="roll-key-heading" ref={heading} tabIndex={-1} className="text-lg font-semibold focus:outline-none">
        Roll “{apiKey.name}” <span className="font-mono text-sm font-normal text-slate-600">{apiKey.hint}</span>
      </h2>
      <p className="text-sm text-slate-700">
        A new key with the same name, scopes and limits is made and shown once. Put it where the old one is used; the old one can keep working meanwhile.
      </p>
      <form onSubmit={form.handleSubmit(onSubmit)} noValidate className="space-y-3" aria-label={`Roll the key ${apiKey.name}`}>
        <ReadyFieldset className="space-y-3">
          <Field id="roll-overlap" label="The old key keeps working for" error={errors.overlapHours?.message}>
            <select
              id="roll-overlap"
              className={`${inputClass} max-w-xs`}
              aria-invalid={errors.overlapHours ? true : undefined}
              aria-describedby={errors.overlapHours ? "roll-overlap-error" : undefined}
              {...form.register("overlapHours", { valueAsNumber: true })}
            >
              {OVERLAPS.map((o) => (
                <option key={o.hours} value={o.hours}>
                  {o.label}
                </option>
              ))}
            </select>
          </Field>
          <div className="flex flex-wrap items-center gap-3">
            <Button type="submit" disabled={isSubmitting}>
              {isSubmitting ? "Rolling…" : "Roll key"}
            </Button>
            <Button variant="quiet" onClick={onCancel} disabled={isSubmitting}>
              Cancel
            </Button>
          </div>
          {error ? (
            <p role="alert" className="text-sm text-red-700">
              {error}
            </p>
          ) : null}
        </ReadyFieldset>
      </form>
    </Card>
  );
}
