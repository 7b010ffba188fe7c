import { redirect } from "next/navigation";

import { SignInForm } from "@/components/auth/sign-in-form";
import { DEMO_ADMIN } from "@/lib/auth/demo";
import { currentStaff } from "@/lib/auth/session";
import { getConfig } from "@/lib/config";
import { safeRedirectPath } from "@/lib/http/safe-redirect";

export const metadata = { title: "Sign in" };

// The HTTP sign-in endpoint redirects here with ?error=CredentialsSignin&code=…; the form's own errors come from its action.
function messageFor(error: unknown, code: unknown): string | null {
  if (error !== "CredentialsSignin") return typeof error === "string" ? "Sign-in failed. Try again." : null;
  const throttled = typeof code === "string" ? /^throttled-(\d+)$/.exec(code) : null;
  if (throttled) return `Too many attempts. Try again in ${throttled[1]} minute${throttled[1] === "1" ? "" : "s"}.`;
  if (code === "two-step-unreadable")
    return "Your two-step sign-in cannot be checked on this server (its secret key was changed). Ask an admin to reset your two-step sign-in.";
  if (code === "code-required") return "Two-step sign-in is on for this account: sign in here, then enter the code from your app.";
  if (code === "bad-code") return "That code is not right or was already used. Sign in again and enter the code your app shows now, or a recovery code.";
  return "That e-mail and password do not match an active account. Check them and try again.";
}

export default async function SignInPage({
  searchParams,
}: {
  searchParams: Promise<{ callbackUrl?: string | string[]; error?: string | string[]; code?: string | string[] }>;
}) {
  const { callbackUrl, error, code } = await searchParams;
  const returnTo = safeRedirectPath(callbackUrl, getConfig().appUrl);
  if (await currentStaff()) redirect(returnTo);
  return (
    <main className="flex min-h-screen items-center justify-center px-4">
      <div className="w-full max-w-sm rounded-xl border border-slate-200 bg-white p-6 shadow-sm">
        <div className="mb-6 flex items-center gap-2">
          {/* eslint-disable-next-line @next/next/no-img-element -- a 28 px static SVG needs no optimisation */}
          <img src="/logo.svg" alt="" width={28} height={28} />
          <span className="text-lg font-semibold">Fundboard</span>
        </div>
        <h1 className="mb-4 text-xl font-semibold">Sign in</h1>
        <SignInForm callbackUrl={returnTo} initialError={messageFor(error, code)} />
        {/* Sandbox mode alone has the demo admin (lib/auth/bootstrap.ts), whose password is public anyway. */}
        {getConfig().sandbox ? (
          <p className="mt-4 rounded-md bg-sky-50 p-3 text-xs text-sky-900" data-testid="demo-account">
            Sandbox mode: sign in as <span className="font-mono whitespace-nowrap">{DEMO_ADMIN.email}</span> with the password{" "}
            <span className="font-mono">{DEMO_ADMIN.password}</span>. No real money moves here.
          </p>
        ) : null}
        <p className="mt-4 text-xs text-slate-600">For your business&apos;s staff only. Ask an admin for an account.</p>
      </div>
    </main>
  );
}
