"use server";

import { AuthError, CredentialsSignin } from "next-auth";

import { signIn } from "@/auth";
import { getConfig } from "@/lib/config";
import { safeRedirectPath } from "@/lib/http/safe-redirect";
import { SIGN_IN_CODE_MISSING, signInFormSchema } from "@/lib/client/staff/schemas";

export interface SignInState {
  error: string | null;
  email: string;
  /** "code": the password was right and the account has two-step sign-in; the form asks for the code. */
  step: "password" | "code";
}

const UNREADABLE = "Your two-step sign-in cannot be checked on this server (its secret key was changed). Ask an admin to reset your two-step sign-in.";

/** What the sign-in page says for each CredentialsSignin code (the form's action and the HTTP endpoint's redirect alike). */
function signInMessage(code: string): { error: string | null; step: SignInState["step"] } {
  const throttled = /^throttled-(\d+)$/.exec(code);
  if (throttled) {
    const minutes = Number(throttled[1]);
    return { error: `Too many attempts. Try again in ${minutes} minute${minutes === 1 ? "" : "s"}.`, step: "password" };
  }
  if (code === "code-required") return { error: null, step: "code" };
  if (code === "two-step-unreadable") return { error: UNREADABLE, step: "password" };
  if (code === "bad-code") {
    return { error: "That code is not right or was already used. Enter the code your app shows now, or a recovery code.", step: "code" };
  }
  return { error: "That e-mail and password do not match an active account. Check them and try again.", step: "password" };
}

/** The sign-in form's submit (components/auth/sign-in-form.tsx, react-hook-form with the same signInFormSchema). */
export async function signInAction(form: FormData): Promise<SignInState> {
  const email = String(form.get("email") ?? "");
  const step = form.get("step") === "code" ? "code" : "password";
  const parsed = signInFormSchema.safeParse({ email, password: form.get("password") ?? "", code: form.get("code") ?? undefined, step });
  if (!parsed.success) {
    const onlyTheCode = parsed.error.issues.every((issue) => issue.path[0] === "code");
    if (step === "code" && onlyTheCode) return { error: SIGN_IN_CODE_MISSING, email, step: "code" };
    return { error: "Enter your e-mail address and your password.", email, step: "password" };
  }
  try {
    await signIn("credentials", {
      email: parsed.data.email,
      password: parsed.data.password,
      code: parsed.data.code ?? "",
      redirectTo: safeRedirectPath(form.get("callbackUrl"), getConfig().appUrl),
    });
  } catch (error) {
    if (error instanceof CredentialsSignin) return { ...signInMessage(error.code), email };
    if (error instanceof AuthError) return { error: "Sign-in failed on our side. Try again in a moment.", email, step: "password" };
    // Success arrives as Next's redirect "error": let it through.
    throw error;
  }
  return { error: null, email, step: "password" };
}
