"use client";

import { useRouter } from "next/navigation";
import { useState, type FormEvent } from "react";

import { Button } from "@/components/ui/button";
import { ErrorNote } from "@/components/ui/error-panel";
import { Field, inputClass } from "@/components/ui/field";
import { ApiError, apiFetch } from "@/lib/http/api-fetch";
import { twoStepDisableSchema } from "@/lib/staff/schemas";

type Errors = Partial<Record<"password" | "code", string>>;

/** Turning two-step sign-in off: the password and a current code (or a recovery code). */
export function TwoStepDisableForm() {
  const router = useRouter();
  const [password, setPassword] = useState("");
  const [code, setCode] = useState("");
  const [errors, setErrors] = useState<Errors>({});
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setError(null);
    const parsed = twoStepDisableSchema.safeParse({ password, code: code.replace(/\s+/g, "") });
    if (!parsed.success) {
      const flat = parsed.error.flatten().fieldErrors;
      setErrors({ password: flat.password?.[0], code: flat.code?.[0] });
      return;
    }
    setErrors({});
    setPending(true);
    try {
      await apiFetch("/api/me/2fa/disable", { method: "POST", json: parsed.data });
      setPassword("");
      setCode("");
      router.refresh();
    } catch (e) {
      if (e instanceof ApiError) {
        const next = { password: e.fieldErrors.password?.[0], code: e.fieldErrors.code?.[0] };
        setErrors(next);
        // A field's own error already says it beside the field.
        setError(next.password || next.code ? null : e.message);
      } else setError("Two-step sign-in could not be turned off. Try again.");
    } finally {
      setPending(false);
    }
  }

  const aria = (name: keyof Errors) => ({
    "aria-invalid": errors[name] ? true : undefined,
    "aria-describedby": errors[name] ? `disable-${name}-error` : undefined,
  });

  return (
    <form onSubmit={(e) => void submit(e)} noValidate aria-label="Turn off two-step sign-in" className="grid gap-3 sm:max-w-md">
      <h3 className="text-sm font-semibold text-slate-900">Turn off two-step sign-in</h3>
      <Field id="disable-password" label="Your password" error={errors.password}>
        <input
          id="disable-password"
          type="password"
          autoComplete="current-password"
          value={password}
          onChange={(e) => setPassword(e.target.value)}
          className={inputClass}
          {...aria("password")}
        />
      </Field>
      <Field id="disable-code" label="Code from your authenticator app, or a recovery code" error={errors.code}>
        <input
          id="disable-code"
          type="text"
          autoComplete="one-time-code"
          maxLength={40}
          value={code}
          onChange={(e) => setCode(e.target.value)}
          className={inputClass}
          {...aria("code")}
        />
      </Field>
      <div>
        <Button type="submit" variant="secondary" disabled={pending}>
          {pending ? "Turning off…" : "Turn off"}
        </Button>
      </div>
      {error ? <ErrorNote role="alert">{error}</ErrorNote> : null}
    </form>
  );
}
