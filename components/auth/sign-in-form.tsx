"use client";

import { useActionState } from "react";

import { signInAction, type SignInState } from "@/app/sign-in/actions";
import { Button } from "@/components/ui/button";
import { Field, inputClass } from "@/components/ui/field";

const initial: SignInState = { error: null, email: "" };

export function SignInForm({ callbackUrl, initialError }: { callbackUrl: string; initialError: string | null }) {
  const [state, action, pending] = useActionState(signInAction, { ...initial, error: initialError });
  return (
    <form action={action} className="space-y-4" noValidate>
      <input type="hidden" name="callbackUrl" value={callbackUrl} />
      <Field id="email" label="E-mail">
        <input id="email" name="email" type="email" autoComplete="username" required defaultValue={state.email} className={inputClass} />
      </Field>
      <Field id="password" label="Password">
        <input id="password" name="password" type="password" autoComplete="current-password" required className={inputClass} />
      </Field>
      <div aria-live="polite" className="min-h-5">
        {state.error ? (
          <p role="alert" data-testid="form-error" className="text-sm text-red-700">
            {state.error}
          </p>
        ) : null}
      </div>
      <Button type="submit" disabled={pending} className="w-full">
        {pending ? "Signing in…" : "Sign in"}
      </Button>
    </form>
  );
}
