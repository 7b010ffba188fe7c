"use client";

import { useState, type FormEvent } from "react";

import { Button } from "@/components/ui/button";
import { ErrorNote } from "@/components/ui/error-panel";
import { Field, inputClass } from "@/components/ui/field";
import { ApiError, apiFetch } from "@/lib/client/http/api-fetch";
import { twoStepEnableSchema, twoStepSetupSchema } from "@/lib/client/staff/schemas";

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
  const [password, setPassword] = useState("");
  const [passwordError, setPasswordError] = useState<string | null>(null);
  const [code, setCode] = useState("");
  const [codeError, setCodeError] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);

  async function begin(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setError(null);
    const parsed = twoStepSetupSchema.safeParse({ password });
    if (!parsed.success) {
      setPasswordError(parsed.error.issues[0]?.message ?? "Enter your password");
      return;
    }
    setPasswordError(null);
    setPending(true);
    try {
      setSetup(await apiFetch<Setup>("/api/me/2fa/setup", { method: "POST", json: parsed.data }));
      setCode("");
      setCodeError(null);
    } catch (e) {
      if (e instanceof ApiError) {
        const field = e.fieldErrors.password?.[0];
        if (field) setPasswordError(field);
        else setError(e.message);
      } else setError("Two-step sign-in could not be set up just now. Try again.");
    } finally {
      setPending(false);
    }
  }

  async function enable(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setError(null);
    // Apps show the code as "123 456"; the server wants the six digits only.
    const parsed = twoStepEnableSchema.safeParse({ password, code: code.replace(/\s+/g, "") });
    if (!parsed.success) {
      setCodeError(parsed.error.issues[0]?.message ?? "Enter the 6-digit code from your authenticator app");
      return;
    }
    setCodeError(null);
    setPending(true);
    try {
      const { recoveryCodes } = await apiFetch<{ recoveryCodes: string[] }>("/api/me/2fa/enable", { method: "POST", json: parsed.data });
      onEnabled(recoveryCodes);
    } catch (e) {
      if (e instanceof ApiError) {
        const field = e.fieldErrors.code?.[0];
        if (field) setCodeError(field);
        else setError(e.message);
      } else setError("Two-step sign-in could not be turned on. Try again.");
      // The password was refused (changed meanwhile, or a typo the throttle caught): ask for it again.
      if (e instanceof ApiError && e.fieldErrors.password) {
        setSetup(null);
        setPassword("");
        setPasswordError(e.fieldErrors.password[0] ?? null);
      }
    } finally {
      setPending(false);
    }
  }

  if (!setup) {
    return (
      <div className="space-y-3">
        <p className="text-sm text-slate-700">
          After your password, you will also enter a 6-digit code from an authenticator app on your phone (Google Authenticator, Microsoft Authenticator,
          1Password and the like).
        </p>
        <form onSubmit={(e) => void begin(e)} noValidate className="space-y-3 sm:max-w-xs">
          <Field id="setup-password" label="Your password" error={passwordError ?? undefined}>
            <input
              id="setup-password"
              name="password"
              type="password"
              autoComplete="current-password"
              value={password}
              onChange={(e) => setPassword(e.target.value)}
              aria-invalid={passwordError ? true : undefined}
              aria-describedby={passwordError ? "setup-password-error" : undefined}
              className={inputClass}
            />
          </Field>
          <Button type="submit" disabled={pending}>
            {pending ? "Preparing…" : "Set up two-step sign-in"}
          </Button>
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
          <form onSubmit={(e) => void enable(e)} noValidate className="space-y-3 sm:max-w-xs">
            <Field id="enable-code" label="Enter the 6-digit code the app shows" error={codeError ?? undefined}>
              <input
                id="enable-code"
                name="code"
                type="text"
                inputMode="numeric"
                autoComplete="one-time-code"
                maxLength={7}
                value={code}
                onChange={(e) => setCode(e.target.value)}
                aria-invalid={codeError ? true : undefined}
                aria-describedby={codeError ? "enable-code-error" : undefined}
                className={inputClass}
              />
            </Field>
            <div className="flex flex-wrap gap-2">
              <Button type="submit" disabled={pending}>
                {pending ? "Checking…" : "Turn on two-step sign-in"}
              </Button>
              <Button
                variant="quiet"
                onClick={() => {
                  setSetup(null);
                  setPassword("");
                }}
                disabled={pending}
              >
                Cancel
              </Button>
            </div>
          </form>
        </li>
      </ol>
      {error ? <ErrorNote role="alert">{error}</ErrorNote> : null}
    </div>
  );
}
