"use client";

import { useState } from "react";
import { useRouter } from "next/navigation";
import { useForm } from "react-hook-form";
import type { z } from "zod";

import { Button } from "@/components/ui/button";
import { Field, inputClass } from "@/components/ui/field";
import { showServerFieldErrors } from "@/lib/client/forms/server-errors";
import { lazyZodResolver } from "@/lib/client/forms/lazy-resolver";
import { ApiError, apiFetch } from "@/lib/client/http/api-fetch";
import type { passwordChangeFormSchema } from "@/lib/client/staff/schemas";
import { ReadyFieldset } from "@/components/ui/ready-fieldset";

type FormInput = z.input<typeof passwordChangeFormSchema>;
type FormOutput = z.output<typeof passwordChangeFormSchema>;
type Name = keyof FormInput;
const EMPTY: FormInput = { currentPassword: "", newPassword: "", confirmNewPassword: "" };

/** The server's rule (one zod schema, lib/staff/schemas.ts) plus the browser-only check that the new password was typed the same twice. */
export function PasswordForm({ firstPassword = false }: { firstPassword?: boolean }) {
  const router = useRouter();
  const [message, setMessage] = useState<{ kind: "ok" | "error"; text: string } | null>(null);
  const form = useForm<FormInput, unknown, FormOutput>({
    resolver: lazyZodResolver(() => import("@/lib/client/staff/schemas").then((m) => m.passwordChangeFormSchema)),
    defaultValues: EMPTY,
  });
  const { errors, isSubmitting } = form.formState;

  async function onSubmit(values: FormOutput) {
    setMessage(null);
    try {
      const { otherSessionsEnded: n } = await apiFetch<{ otherSessionsEnded: number }>("/api/me/password", {
        method: "POST",
        json: { currentPassword: values.currentPassword, newPassword: values.newPassword },
      });
      form.reset(EMPTY);
      const others = n === 0 ? "Other sessions would have been signed out, but none were open" : `${n} other session${n === 1 ? " was" : "s were"} signed out`;
      setMessage({ kind: "ok", text: `Password changed. ${others}; this one stays signed in.` });
      // The whole dashboard opens now: the server renders the page again without the banner.
      if (firstPassword) router.refresh();
    } catch (error) {
      if (error instanceof ApiError) {
        // A field's own error already says it beside the field.
        const beside = showServerFieldErrors(form.setError, error.fieldErrors, ["currentPassword", "newPassword"]);
        setMessage(beside ? null : { kind: "error", text: error.message });
      } else setMessage({ kind: "error", text: "Your password could not be changed. Try again." });
    }
  }

  const input = (name: Name, autoComplete: string) => ({
    id: name,
    type: "password",
    autoComplete,
    className: inputClass,
    "aria-invalid": errors[name] ? true : undefined,
    "aria-describedby": errors[name] ? `${name}-error` : undefined,
    ...form.register(name),
  });

  return (
    <form onSubmit={form.handleSubmit(onSubmit)} noValidate className="grid gap-4 sm:max-w-md" aria-label="Change password">
      <ReadyFieldset>
        <Field id="currentPassword" label="Current password" error={errors.currentPassword?.message}>
          <input {...input("currentPassword", "current-password")} />
        </Field>
        <Field id="newPassword" label="New password" error={errors.newPassword?.message} hint="At least 10 characters.">
          <input {...input("newPassword", "new-password")} />
        </Field>
        <Field id="confirmNewPassword" label="New password again" error={errors.confirmNewPassword?.message}>
          <input {...input("confirmNewPassword", "new-password")} />
        </Field>
        <div className="flex flex-wrap items-center gap-3">
          <Button type="submit" disabled={isSubmitting}>
            {isSubmitting ? "Changing…" : "Change password"}
          </Button>
        </div>
        <p aria-live="polite" data-testid="password-message" className={message?.kind === "error" ? "text-sm text-red-700" : "text-sm text-green-800"}>
          {message?.text}
        </p>
      </ReadyFieldset>
    </form>
  );
}
