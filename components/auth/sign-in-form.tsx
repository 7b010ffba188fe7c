"use client";

import { unstable_rethrow } from "next/navigation";
import { useState } from "react";
import { useForm, useWatch } from "react-hook-form";
import type { z } from "zod";

import { signInAction, type SignInState } from "@/app/sign-in/actions";
import { Button } from "@/components/ui/button";
import { Field, inputClass } from "@/components/ui/field";
import { lazyZodResolver } from "@/lib/client/forms/lazy-resolver";
import type { signInFormSchema } from "@/lib/client/staff/schemas";
import { ReadyFieldset } from "@/components/ui/ready-fieldset";

type FormInput = z.input<typeof signInFormSchema>;
type FormOutput = z.output<typeof signInFormSchema>;

/**
 * Two steps in one form: e-mail and password, then (for an account with two-step sign-in) the code, sent with the
 * e-mail and password kept in the form's state. Both go to the server action signInAction, which signs in (next-auth,
 * under the sign-in throttle) and redirects, or answers the message and the step to show.
 */
export function SignInForm({ callbackUrl, initialError }: { callbackUrl: string; initialError: string | null }) {
  const [outcome, setOutcome] = useState<{ error: string | null; email: string }>({ error: initialError, email: "" });
  // Signed in: the action's redirect is being followed.
  const [leaving, setLeaving] = useState(false);
  const form = useForm<FormInput, unknown, FormOutput>({
    resolver: lazyZodResolver(() => import("@/lib/client/staff/schemas").then((m) => m.signInFormSchema)),
    defaultValues: { email: "", password: "", code: "", step: "password" },
  });
  const { errors, isSubmitting } = form.formState;
  const askCode = useWatch({ control: form.control, name: "step" }) === "code";
  const pending = isSubmitting || leaving;

  async function onSubmit(values: FormOutput) {
    const data = new FormData();
    data.set("callbackUrl", callbackUrl);
    data.set("step", values.step);
    data.set("email", values.email);
    data.set("password", values.password);
    if (values.code) data.set("code", values.code);
    let result: SignInState;
    try {
      result = await signInAction(data);
    } catch (error) {
      // Success arrives as Next's redirect "error": rethrown, Next's router follows it.
      setLeaving(true);
      unstable_rethrow(error);
      setLeaving(false);
      setOutcome({ error: "Sign-in could not reach the server. Check your connection and try again.", email: values.email });
      return;
    }
    setOutcome({ error: result.error, email: result.email });
    form.setValue("step", result.step);
    // As a fresh form would: the code step asks for a new code; back on the first step, the password is typed again.
    if (result.step === "code") form.setValue("code", "");
    else form.setValue("password", "");
  }

  const aria = (name: "email" | "password" | "code") => ({
    "aria-invalid": errors[name] ? true : undefined,
    "aria-describedby": errors[name] ? `${name}-error` : undefined,
  });

  // method="post": a submit before the page's script runs never puts the password in the address.
  return (
    <form method="post" onSubmit={form.handleSubmit(onSubmit)} className="space-y-4" noValidate>
      <ReadyFieldset className="space-y-4">
        {askCode ? (
          <>
            <p className="text-sm text-slate-700">
              Two-step sign-in is on for <span className="font-medium">{outcome.email}</span>.
            </p>
            <Field
              id="code"
              label="Code from your authenticator app"
              error={errors.code?.message}
              hint="Lost your phone? Enter one of your recovery codes instead."
            >
              <input
                id="code"
                type="text"
                inputMode="numeric"
                autoComplete="one-time-code"
                autoFocus
                required
                maxLength={40}
                className={inputClass}
                {...aria("code")}
                {...form.register("code")}
              />
            </Field>
          </>
        ) : (
          <>
            <Field id="email" label="E-mail" error={errors.email?.message}>
              <input id="email" type="email" autoComplete="username" required className={inputClass} {...aria("email")} {...form.register("email")} />
            </Field>
            <Field id="password" label="Password" error={errors.password?.message}>
              <input
                id="password"
                type="password"
                autoComplete="current-password"
                required
                className={inputClass}
                {...aria("password")}
                {...form.register("password")}
              />
            </Field>
          </>
        )}
        <div aria-live="polite" className="min-h-5">
          {outcome.error ? (
            <p role="alert" data-testid="form-error" className="text-sm text-red-700">
              {outcome.error}
            </p>
          ) : null}
        </div>
        <Button type="submit" disabled={pending} className="w-full">
          {pending ? "Signing in…" : askCode ? "Verify code" : "Sign in"}
        </Button>
        {askCode ? (
          <Button
            type="button"
            variant="quiet"
            className="w-full"
            onClick={() => {
              setOutcome((o) => ({ ...o, error: null }));
              form.reset({ email: form.getValues("email"), password: "", code: "", step: "password" });
            }}
          >
            Use another account
          </Button>
        ) : null}
      </ReadyFieldset>
    </form>
  );
}
