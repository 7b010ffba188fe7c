"use client";

import { useRouter } from "next/navigation";
import { useState, type FormEvent } from "react";

import { Button } from "@/components/ui/button";
import { ErrorNote } from "@/components/ui/error-panel";
import { Field, inputClass } from "@/components/ui/field";
import { ApiError, apiFetch } from "@/lib/client/http/api-fetch";
import { twoStepConfirmSchema } from "@/lib/client/staff/schemas";

type Errors = Partial<Record<"password" | "code", string>>;

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
  const [password, setPassword] = useState("");
  const [code, setCode] = useState("");
  const [errors, setErrors] = useState<Errors>({});
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setError(null);
    const parsed = twoStepConfirmSchema.safeParse({ password, code: code.replace(/\s+/g, "") });
    if (!parsed.success) {
      const flat = parsed.error.flatten().fieldErrors;
      setErrors({ password: flat.password?.[0], code: flat.code?.[0] });
      return;
    }
    setErrors({});
    setPending(true);
    try {
      const data = await apiFetch<T>(action.url, { method: "POST", json: parsed.data });
      setPassword("");
      setCode("");
      onDone?.(data);
      router.refresh();
    } catch (e) {
      if (e instanceof ApiError) {
        const next = { password: e.fieldErrors.password?.[0], code: e.fieldErrors.code?.[0] };
        setErrors(next);
        // A field's own error already says it beside the field.
        setError(next.password || next.code ? null : e.message);
      } else setError(action.failed);
    } finally {
      setPending(false);
    }
  }

  const aria = (name: keyof Errors) => ({
    "aria-invalid": errors[name] ? true : undefined,
    "aria-describedby": errors[name] ? `${action.id}-${name}-error` : undefined,
  });

  return (
    <form onSubmit={(e) => void submit(e)} noValidate aria-label={action.title} className="grid gap-3 sm:max-w-md">
      <h3 className="text-sm font-semibold text-slate-900">{action.title}</h3>
      {action.explain ? <p className="text-sm text-slate-700">{action.explain}</p> : null}
      <Field id={`${action.id}-password`} label="Your password" error={errors.password}>
        <input
          id={`${action.id}-password`}
          type="password"
          autoComplete="current-password"
          value={password}
          onChange={(e) => setPassword(e.target.value)}
          className={inputClass}
          {...aria("password")}
        />
      </Field>
      <Field id={`${action.id}-code`} label="Code from your authenticator app, or a recovery code" error={errors.code}>
        <input
          id={`${action.id}-code`}
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
          {pending ? action.pending : action.submit}
        </Button>
      </div>
      {error ? <ErrorNote role="alert">{error}</ErrorNote> : null}
    </form>
  );
}
