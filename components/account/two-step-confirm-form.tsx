"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import { useForm } from "react-hook-form";
import type { z } from "zod";

import { Button } from "@/components/ui/button";
import { ErrorNote } from "@/components/ui/error-panel";
import { Field, inputClass } from "@/components/ui/field";
import { showServerFieldErrors } from "@/lib/client/forms/server-errors";
import { lazyZodResolver } from "@/lib/client/forms/lazy-resolver";
import { ApiError, apiFetch } from "@/lib/client/http/api-fetch";
import type { twoStepConfirmSchema } from "@/lib/client/staff/schemas";
import { ReadyFieldset } from "@/components/ui/ready-fieldset";

type FormInput = z.input<typeof twoStepConfirmSchema>;
type FormOutput = z.output<typeof twoStepConfirmSchema>;

export interface TwoStepConfirmAction {
  /** Field ids and the form's name derive from it. */
  id: "disable" | "renew";
  title: string;
  explain?: string;
  url: string;
  submit: string;
  pending: string;
  failed: string;
}

/**
 * An action that needs the password and a current code (or a recovery code): turning two-step sign-in
 * off, or renewing the recovery codes. `onDone` gets the answer's data; the page is refreshed after.
 */
export function TwoStepConfirmForm<T>({ action, onDone }: { action: TwoStepConfirmAction; onDone?: (data: T) => void }) {
  const router = useRouter();
  const [error, setError] = useState<string | null>(null);
  const form = useForm<FormInput, unknown, FormOutput>({
    resolver: lazyZodResolver(() => import("@/lib/client/staff/schemas").then((m) => m.twoStepConfirmSchema)),
    defaultValues: { password: "", code: "" },
  });
  const { errors, isSubmitting } = form.formState;

  async function onSubmit(values: FormOutput) {
    setError(null);
    try {
      const data = await apiFetch<T>(action.url, { method: "POST", json: values });
      form.reset();
      onDone?.(data);
      router.refresh();
    } catch (e) {
      if (e instanceof ApiError) {
        // A field's own error already says it beside the field.
        const beside = showServerFieldErrors(form.setError, e.fieldErrors, ["password", "code"]);
        setError(beside ? null : e.message);
      } else setError(action.failed);
    }
  }

  const aria = (name: keyof FormInput) => ({
    "aria-invalid": errors[name] ? true : undefined,
    "aria-describedby": errors[name] ? `${action.id}-${name}-error` : undefined,
  });

  return (
    <form onSubmit={form.handleSubmit(onSubmit)} noValidate aria-label={action.title} className="grid gap-3 sm:max-w-md">
      <ReadyFieldset>
        <h3 className="text-sm font-semibold text-slate-900">{action.title}</h3>
        {action.explain ? <p className="text-sm text-slate-700">{action.explain}</p> : null}
        <Field id={`${action.id}-password`} label="Your password" error={errors.password?.message}>
          <input
            id={`${action.id}-password`}
            type="password"
            autoComplete="current-password"
            className={inputClass}
            {...aria("password")}
            {...form.register("password")}
          />
        </Field>
        <Field id={`${action.id}-code`} label="Code from your authenticator app, or a recovery code" error={errors.code?.message}>
          <input
            id={`${action.id}-code`}
            type="text"
            autoComplete="one-time-code"
            maxLength={40}
            className={inputClass}
            {...aria("code")}
            {...form.register("code")}
          />
        </Field>
        <div>
          <Button type="submit" variant="secondary" disabled={isSubmitting}>
            {isSubmitting ? action.pending : action.submit}
          </Button>
        </div>
        {error ? <ErrorNote role="alert">{error}</ErrorNote> : null}
      </ReadyFieldset>
    </form>
  );
}
