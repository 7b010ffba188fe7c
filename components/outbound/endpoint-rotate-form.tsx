"use client";

import { useForm } from "react-hook-form";
import type { z } from "zod";

import { Button } from "@/components/ui/button";
import { Field, inputClass } from "@/components/ui/field";
import { lazyZodResolver } from "@/lib/client/forms/lazy-resolver";
import type { rotateSecretSchema } from "@/lib/client/outbound/schemas";
import { ReadyFieldset } from "@/components/ui/ready-fieldset";

// Rotating an endpoint's signing secret (POST /api/webhook-endpoints/:id/rotate-secret): the admin chooses how long
// the old secret keeps signing beside the new one, 0 to 168 hours (24 unless changed), so the receiver can switch
// without a delivery it cannot verify. The card posts it and shows the new secret once.

type FormInput = z.input<typeof rotateSecretSchema>;
type FormOutput = z.output<typeof rotateSecretSchema>;

export const DEFAULT_OVERLAP_HOURS = 24;

export function RotateSecretForm({
  endpointId,
  endpointUrl,
  busy,
  onRotate,
}: {
  endpointId: string;
  endpointUrl: string;
  busy: boolean;
  onRotate: (values: FormOutput) => void;
}) {
  const form = useForm<FormInput, unknown, FormOutput>({
    resolver: lazyZodResolver(() => import("@/lib/client/outbound/schemas").then((m) => m.rotateSecretSchema)),
    defaultValues: { overlapHours: DEFAULT_OVERLAP_HOURS },
  });
  const { errors } = form.formState;
  const id = `rotate-overlap-${endpointId}`;
  return (
    <form
      onSubmit={form.handleSubmit(onRotate)}
      noValidate
      className="flex flex-wrap items-start gap-2"
      aria-label={`Rotate the signing secret of ${endpointUrl}`}
    >
      <ReadyFieldset>
        <Field id={id} label="Old secret keeps signing for (hours)" hint="0 to 168 hours; 0 stops it at once." error={errors.overlapHours?.message}>
          <input
            id={id}
            type="number"
            inputMode="numeric"
            min={0}
            max={168}
            step={1}
            // Shown before the page's script runs too (react-hook-form's own default applies once it does).
            defaultValue={DEFAULT_OVERLAP_HOURS}
            className={`${inputClass} max-w-[9rem]`}
            aria-invalid={errors.overlapHours ? true : undefined}
            aria-describedby={errors.overlapHours ? `${id}-error` : `${id}-hint`}
            {...form.register("overlapHours", { valueAsNumber: true })}
          />
        </Field>
        {/* mt-6: level with the field's input, below its label (the hint or error line hangs under both). */}
        <Button type="submit" variant="secondary" disabled={busy} className="mt-6">
          Rotate secret
        </Button>
      </ReadyFieldset>
    </form>
  );
}
