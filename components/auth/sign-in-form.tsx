"use client";

import { useActionState, useState } from "react";

import { signInAction, type SignInState } from "@/app/sign-in/actions";
import { Button } from "@/components/ui/button";
import { Field, inputClass } from "@/components/ui/field";

const initial: SignInState = { error: null, email: "", step: "password" };

export function SignInForm({ callbackUrl, initialError }: { callbackUrl: string; initialError: string | null }) {
  const [state, action, pending] = useActionState(signInAction, { ...initial, error: initialError });
  // Kept here for the code step, which sends it again with the code (the browser clears the form after each submit).
  const [password, setPassword] = useState("");
  const askCode = state.step === "code" && password !== "";
  return (
    <form action={action} className="space-y-4" noValidate>
      <input type="hidden" name="callbackUrl" value={callbackUrl} />
      {askCode ? (
        <>
          <input type="hidden" name="step" value="code" />
          <input type="hidden" name="email" value={state.email} />
          <input type="hidden" name="password" value={password} />
          <p className="text-sm text-slate-700">
            Two-step sign-in is on for <span className="font-medium">{state.email}</span>.
          </p>
          <Field id="code" label="Code from your authenticator app" hint="Lost your phone? Enter one of your recovery codes instead.">
            <input
              id="code"
              name="code"
              type="text"
              inputMode="numeric"
              autoComplete="one-time-code"
              autoFocus
              required
              maxLength={40}
              className={inputClass}
            />
          </Field>
        </>
      ) : (
        <>
          <Field id="email" label="E-mail">
            <input id="email" name="email" type="email" autoComplete="username" required defaultValue={state.email} className={inputClass} />
          </Field>
          <Field id="password" label="Password">
            <input
              id="password"
              name="password"
              type="password"
              autoComplete="current-password"
              required
              onChange={(e) => setPassword(e.target.value)}
              className={inputClass}
            />
          </Field>
        </>
      )}
      <div aria-live="polite" className="min-h-5">
        {state.error ? (
          <p role="alert" data-testid="form-error" className="text-sm text-red-700">
            {state.error}
          </p>
        ) : null}
      </div>
      <Button type="submit" disabled={pending} className="w-full">
        {pending ? "Signing in…" : askCode ? "Verify code" : "Sign in"}
      </Button>
      {askCode ? (
        <Button type="button" variant="quiet" className="w-full" onClick={() => setPassword("")}>
          Use another account
        </Button>
      ) : null}
    </form>
  );
}
