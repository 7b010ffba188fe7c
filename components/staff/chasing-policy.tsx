"use client";

import { useState } from "react";
import { useForm } from "react-hook-form";
import type { z } from "zod";

import { Button } from "@/components/ui/button";
import { Field, inputClass } from "@/components/ui/field";
import { lazyZodResolver } from "@/lib/client/forms/lazy-resolver";
import { ApiError, apiFetchWithMessage } from "@/lib/client/http/api-fetch";
import type { settingsPatchSchema } from "@/lib/client/staff/schemas";
import { ReadyFieldset } from "@/components/ui/ready-fieldset";

type FormInput = z.input<typeof settingsPatchSchema>;
type FormOutput = z.output<typeof settingsPatchSchema>;

interface Policy {
  declineCooldownHours: number;
  maxAsksPerTag: number;
}

/** The chasing policy (PATCH /api/settings; docs/architecture.md "Payers and chasing"), checked with the handler's schema; the server audits the change. */
export function ChasingPolicy({ initial }: { initial: Policy }) {
  const [message, setMessage] = useState<{ kind: "ok" | "error"; text: string } | null>(null);
  const form = useForm<FormInput, unknown, FormOutput>({
    resolver: lazyZodResolver(() => import("@/lib/client/staff/schemas").then((m) => m.settingsPatchSchema)),
    defaultValues: initial,
  });
  const { errors, isSubmitting } = form.formState;

  async function onSubmit(values: FormOutput) {
    setMessage(null);
    try {
      const { data, message: said } = await apiFetchWithMessage<Policy>("/api/settings", {
        method: "PATCH",
        json: { declineCooldownHours: values.declineCooldownHours, maxAsksPerTag: values.maxAsksPerTag },
      });
      form.reset({ declineCooldownHours: data.declineCooldownHours, maxAsksPerTag: data.maxAsksPerTag });
      setMessage({ kind: "ok", text: said });
    } catch (error) {
      setMessage({ kind: "error", text: error instanceof ApiError ? error.message : "The policy did not save. Try again." });
    }
  }

  return (
    <section aria-labelledby="chasing-heading" className="space-y-3">
      <h2 id="chasing-heading" className="text-lg font-semibold">
        Chasing policy
      </h2>
      <p className="text-sm text-slate-700">Who an &ldquo;Ask again&rdquo; round leaves out, so nobody is pestered.</p>
      <form className="flex flex-wrap items-end gap-3" noValidate onSubmit={form.handleSubmit(onSubmit)}>
        <ReadyFieldset>
          <Field id="policy-cooldown" label="Hours before asking someone who declined" error={errors.declineCooldownHours?.message}>
            <input
              id="policy-cooldown"
              type="number"
              min={0}
              max={8760}
              className={inputClass}
              aria-invalid={errors.declineCooldownHours ? true : undefined}
              {...form.register("declineCooldownHours", { valueAsNumber: true })}
            />
          </Field>
          <Field id="policy-asks" label="Most asks of one person in a campaign and its rounds" error={errors.maxAsksPerTag?.message}>
            <input
              id="policy-asks"
              type="number"
              min={1}
              max={20}
              className={inputClass}
              aria-invalid={errors.maxAsksPerTag ? true : undefined}
              {...form.register("maxAsksPerTag", { valueAsNumber: true })}
            />
          </Field>
          <Button type="submit" disabled={isSubmitting}>
            {isSubmitting ? "Saving…" : "Save policy"}
          </Button>
        </ReadyFieldset>
      </form>
      <p aria-live="polite" className={message?.kind === "error" ? "text-sm text-red-700" : "text-sm text-slate-700"}>
        {message?.text}
      </p>
    </section>
  );
}
