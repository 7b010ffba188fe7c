"use client";

import { useState } from "react";
import { useForm } from "react-hook-form";
import type { z } from "zod";

import { Button } from "@/components/ui/button";
import { ErrorNote } from "@/components/ui/error-panel";
import { Field, inputClass } from "@/components/ui/field";
import { showServerFieldErrors } from "@/lib/client/forms/server-errors";
import { lazyZodResolver } from "@/lib/client/forms/lazy-resolver";
import { ApiError, apiFetch } from "@/lib/client/http/api-fetch";
import type { twoStepEnableSchema, twoStepSetupSchema } from "@/lib/client/staff/schemas";
import { ReadyFieldset } from "@/components/ui/ready-fieldset";

type SetupInput = z.input<typeof twoStepSetupSchema>;
type SetupOutput = z.output<typeof twoStepSetupSchema>;
type EnableInput = z.input<typeof twoStepEnableSchema>;
type EnableOutput = z.output<typeof twoStepEnableSchema>;

interface Setup {
  secret: string;
  otpauthUrl: string;
  qrSvg: string;
}

/** "ABCD EFGH …": the base32 secret in groups of four, easier to type into an app by hand. */
export function groupSecret(secret: string): string {
  return (secret.match(/.{1,4}/g) ?? []).join(" ");
}

/**
 * Set-up: the password (so a stolen session cannot turn it on), then a secret with its QR code and text, and
 * two-step sign-in turned on with the app's first code. The password is kept in memory until then: enable asks for it too.
 */
export function TwoStepSetup({ onEnabled }: { onEnabled: (recoveryCodes: string[]) => void }) {
  const [setup, setSetup] = useState<Setup | null>(null);
  const [error, setError] = useState<string | null>(null);
  const passwordForm = useForm<SetupInput, unknown, SetupOutput>({
    resolver: lazyZodResolver(() => import("@/lib/client/staff/schemas").then((m) => m.twoStepSetupSchema)),
    defaultValues: { password: "" },
  });
  // The code step's form carries the password from the first step (no field of its own): enable checks both.
  const codeForm = useForm<EnableInput, unknown, EnableOutput>({
    resolver: lazyZodResolver(() => import("@/lib/client/staff/schemas").then((m) => m.twoStepEnableSchema)),
    defaultValues: { password: "", code: "" },
  });
  const passwordError = passwordForm.formState.errors.password?.message;
  const codeError = codeForm.formState.errors.code?.message;
  const pending = passwordForm.formState.isSubmitting || codeForm.formState.isSubmitting;

  function startOver() {
    setSetup(null);
    passwordForm.reset({ password: "" });
    codeForm.reset({ password: "", code: "" });
  }

  async function begin(values: SetupOutput) {
    setError(null);
    try {
      setSetup(await apiFetch<Setup>("/api/me/2fa/setup", { method: "POST", json: values }));
      codeForm.reset({ password: values.password, code: "" });
    } catch (e) {
      if (e instanceof ApiError) {
        if (!showServerFieldErrors(passwordForm.setError, e.fieldErrors, ["password"])) setError(e.message);
      } else setError("Two-step sign-in could not be set up just now. Try again.");
    }
  }

  async function enable(values: EnableOutput) {
    setError(null);
    try {
      const { recoveryCodes } = await apiFetch<{ recoveryCodes: string[] }>("/api/me/2fa/enable", { method: "POST", json: values });
      onEnabled(recoveryCodes);
    } catch (e) {
      const refusedPassword = e instanceof ApiError ? e.fieldErrors.password?.[0] : undefined;
      if (refusedPassword) {
        // The password was refused (changed meanwhile, or a typo the throttle caught): ask for it again.
        startOver();
        passwordForm.setError("password", { type: "server", message: refusedPassword });
      } else if (e instanceof ApiError) {
        if (!showServerFieldErrors(codeForm.setError, e.fieldErrors, ["code"])) setError(e.message);
      } else setError("Two-step sign-in could not be turned on. Try again.");
    }
  }

  if (!setup) {
    return (
      <div className="space-y-3">
        <p className="text-sm text-slate-700">
          After your password, you will also enter a 6-digit code from an authenticator app on your phone (Google Authenticator, Microsoft Authenticator,
          1Password and the like).
        </p>
        <form onSubmit={passwordForm.handleSubmit(begin)} noValidate className="space-y-3 sm:max-w-xs">
          <ReadyFieldset className="space-y-3">
            <Field id="setup-password" label="Your password" error={passwordError}>
              <input
                id="setup-password"
                type="password"
                autoComplete="current-password"
                aria-invalid={passwordError ? true : undefined}
                aria-describedby={passwordError ? "setup-password-error" : undefined}
                className={inputClass}
                {...passwordForm.register("password")}
              />
            </Field>
            <Button type="submit" disabled={pending}>
              {pending ? "Preparing…" : "Set up two-step sign-in"}
            </Button>
          </ReadyFieldset>
        </form>
        {error ? <ErrorNote role="alert">{error}</ErrorNote> : null}
      </div>
    );
  }

  return (
    <div className="space-y-4">
      <ol className="list-decimal space-y-4 pl-5 text-sm text-slate-700">
        <li>
          <p>Scan this QR code with your authenticator app.</p>
          {/* eslint-disable-next-line @next/next/no-img-element -- a data: URL of our own SVG (img-src allows data:); nothing to optimise */}
          <img
            src={`data:image/svg+xml;charset=utf-8,${encodeURIComponent(setup.qrSvg)}`}
            alt="QR code to add Fundboard to your authenticator app"
            width={192}
            height={192}
            className="mt-2 rounded border border-slate-200 bg-white"
            data-testid="totp-qr"
          />
        </li>
        <li>
          <p>Or, if you cannot scan it, type this key into the app (time-based):</p>
          <p className="mt-1 font-mono text-base tracking-wide break-all text-slate-900" data-testid="totp-secret">
            {groupSecret(setup.secret)}
          </p>
        </li>
        <li>
          <form onSubmit={codeForm.handleSubmit(enable)} noValidate className="space-y-3 sm:max-w-xs">
            <ReadyFieldset className="space-y-3">
              <Field id="enable-code" label="Enter the 6-digit code the app shows" error={codeError}>
                <input
                  id="enable-code"
                  type="text"
                  inputMode="numeric"
                  autoComplete="one-time-code"
                  maxLength={7}
                  aria-invalid={codeError ? true : undefined}
                  aria-describedby={codeError ? "enable-code-error" : undefined}
                  className={inputClass}
                  {...codeForm.register("code")}
                />
              </Field>
              <div className="flex flex-wrap gap-2">
                <Button type="submit" disabled={pending}>
                  {pending ? "Checking…" : "Turn on two-step sign-in"}
                </Button>
                <Button
                  variant="quiet"
                  onClick={() => {
                    setError(null);
                    startOver();
                  }}
                  disabled={pending}
                >
                  Cancel
                </Button>
              </div>
            </ReadyFieldset>
          </form>
        </li>
      </ol>
      {error ? <ErrorNote role="alert">{error}</ErrorNote> : null}
    </div>
  );
}
