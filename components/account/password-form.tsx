"use client";

import { useState, type FormEvent } from "react";

import { Button } from "@/components/ui/button";
import { Field, inputClass } from "@/components/ui/field";
import { ApiError, apiFetch } from "@/lib/client/http/api-fetch";
import { passwordChangeSchema } from "@/lib/client/staff/schemas";

type Name = "currentPassword" | "newPassword" | "confirmNewPassword";
type Errors = Partial<Record<Name, string>>;
const EMPTY: Record<Name, string> = { currentPassword: "", newPassword: "", confirmNewPassword: "" };

/** The server's rule (one zod schema) plus the browser-only check that the new password was typed the same twice. */
function check(values: Record<Name, string>): Errors {
  const parsed = passwordChangeSchema.safeParse({ currentPassword: values.currentPassword, newPassword: values.newPassword });
  const flat = parsed.success ? {} : parsed.error.flatten().fieldErrors;
  const errors: Errors = { currentPassword: flat.currentPassword?.[0], newPassword: flat.newPassword?.[0] };
  if (values.newPassword !== values.confirmNewPassword) errors.confirmNewPassword = "The two new passwords do not match; type the same one twice";
  return errors;
}

export function PasswordForm() {
  const [values, setValues] = useState(EMPTY);
  const [errors, setErrors] = useState<Errors>({});
  const [message, setMessage] = useState<{ kind: "ok" | "error"; text: string } | null>(null);
  const [pending, setPending] = useState(false);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setMessage(null);
    const found = check(values);
    setErrors(found);
    if (Object.values(found).some(Boolean)) return;
    setPending(true);
    try {
      const { otherSessionsEnded: n } = await apiFetch<{ otherSessionsEnded: number }>("/api/me/password", {
        method: "POST",
        json: { currentPassword: values.currentPassword, newPassword: values.newPassword },
      });
      setValues(EMPTY);
      const others = n === 0 ? "Other sessions would have been signed out, but none were open" : `${n} other session${n === 1 ? " was" : "s were"} signed out`;
      setMessage({ kind: "ok", text: `Password changed. ${others}; this one stays signed in.` });
    } catch (error) {
      if (error instanceof ApiError) {
        const beside: Errors = { currentPassword: error.fieldErrors.currentPassword?.[0], newPassword: error.fieldErrors.newPassword?.[0] };
        setErrors(beside);
        // A field's own error already says it beside the field.
        setMessage(beside.currentPassword || beside.newPassword ? null : { kind: "error", text: error.message });
      } else setMessage({ kind: "error", text: "Your password could not be changed. Try again." });
    } finally {
      setPending(false);
    }
  }

  const input = (name: Name, autoComplete: string) => ({
    id: name,
    type: "password",
    autoComplete,
    className: inputClass,
    value: values[name],
    onChange: (e: { target: { value: string } }) => setValues((v) => ({ ...v, [name]: e.target.value })),
    "aria-invalid": errors[name] ? true : undefined,
    "aria-describedby": errors[name] ? `${name}-error` : undefined,
  });

  return (
    <form onSubmit={(e) => void submit(e)} noValidate className="grid gap-4 sm:max-w-md" aria-label="Change password">
      <Field id="currentPassword" label="Current password" error={errors.currentPassword}>
        <input {...input("currentPassword", "current-password")} />
      </Field>
      <Field id="newPassword" label="New password" error={errors.newPassword} hint="At least 10 characters.">
        <input {...input("newPassword", "new-password")} />
      </Field>
      <Field id="confirmNewPassword" label="New password again" error={errors.confirmNewPassword}>
        <input {...input("confirmNewPassword", "new-password")} />
      </Field>
      <div className="flex flex-wrap items-center gap-3">
        <Button type="submit" disabled={pending}>
          {pending ? "Changing…" : "Change password"}
        </Button>
      </div>
      <p aria-live="polite" data-testid="password-message" className={message?.kind === "error" ? "text-sm text-red-700" : "text-sm text-green-800"}>
        {message?.text}
      </p>
    </form>
  );
}
