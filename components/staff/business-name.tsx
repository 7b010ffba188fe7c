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

/** The name payers see on pay pages (PATCH /api/settings; docs/architecture.md "Pay pages"); the server audits it. */
export function BusinessName({ initial }: { initial: string }) {
  const [message, setMessage] = useState<{ kind: "ok" | "error"; text: string } | null>(null);
  const form = useForm<FormInput, unknown, FormOutput>({
    resolver: lazyZodResolver(() => import("@/lib/client/staff/schemas").then((m) => m.settingsPatchSchema)),
    defaultValues: { businessName: initial },
  });
  const { errors, isSubmitting } = form.formState;

  async function onSubmit(values: FormOutput) {
    setMessage(null);
    try {
      const { data, message: said } = await apiFetchWithMessage<{ businessName: string }>("/api/settings", {
        method: "PATCH",
        json: { businessName: values.businessName },
      });
      form.reset({ businessName: data.businessName });
      setMessage({ kind: "ok", text: said });
    } catch (error) {
      setMessage({ kind: "error", text: error instanceof ApiError ? error.message : "The name did not save. Try again." });
    }
  }

  return (
    // No aria-labelledby: a region named "Business name" would answer the staff form's "Name" label too.
    <section className="space-y-3">
      <h2 className="text-lg font-semibold">Business name</h2>
      <p className="text-sm text-slate-700">What payers see at the top of your pay pages.</p>
      <form className="flex flex-wrap items-end gap-3" noValidate onSubmit={form.handleSubmit(onSubmit)}>
        <ReadyFieldset>
          <Field id="business-name" label="Shown on pay pages as" error={errors.businessName?.message}>
            <input
              id="business-name"
              className={inputClass}
              maxLength={80}
              aria-invalid={errors.businessName ? true : undefined}
              {...form.register("businessName")}
            />
          </Field>
          <Button type="submit" disabled={isSubmitting}>
            {isSubmitting ? "Saving…" : "Save name"}
          </Button>
        </ReadyFieldset>
      </form>
      <p aria-live="polite" className={message?.kind === "error" ? "text-sm text-red-700" : "text-sm text-slate-700"}>
        {message?.text}
      </p>
    </section>
  );
}
