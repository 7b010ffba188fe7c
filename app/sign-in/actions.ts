"use server";

import { AuthError, CredentialsSignin } from "next-auth";

import { signIn } from "@/auth";
import { getConfig } from "@/lib/config";
import { safeRedirectPath } from "@/lib/http/safe-redirect";
import { signInSchema } from "@/lib/staff/schemas";

export interface SignInState {
  error: string | null;
  email: string;
}

export async function signInAction(_previous: SignInState, form: FormData): Promise<SignInState> {
  const email = String(form.get("email") ?? "");
  const parsed = signInSchema.safeParse({ email, password: form.get("password") ?? "" });
  if (!parsed.success) return { error: "Enter your e-mail address and your password.", email };
  try {
    await signIn("credentials", {
      email: parsed.data.email,
      password: parsed.data.password,
      redirectTo: safeRedirectPath(form.get("callbackUrl"), getConfig().appUrl),
    });
  } catch (error) {
    if (error instanceof CredentialsSignin) {
      const throttled = /^throttled-(\d+)$/.exec(error.code);
      if (throttled) {
        const minutes = Number(throttled[1]);
        return { error: `Too many attempts. Try again in ${minutes} minute${minutes === 1 ? "" : "s"}.`, email };
      }
      return { error: "That e-mail and password do not match an active account. Check them and try again.", email };
    }
    if (error instanceof AuthError) return { error: "Sign-in failed on our side. Try again in a moment.", email };
    // Success arrives as Next's redirect "error": let it through.
    throw error;
  }
  return { error: null, email };
}
