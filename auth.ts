import NextAuth, { CredentialsSignin } from "next-auth";
import Credentials from "next-auth/providers/credentials";

import { writeAudit, writeRefusedSignIn } from "@/lib/audit/write";
import { verifyPassword } from "@/lib/auth/password";
import { endSession, startSession } from "@/lib/auth/sessions";
import { beginAttempt, clearFailures, pruneAttempts } from "@/lib/auth/throttle";
import { checkSecondStep, TwoStepUnreadable } from "@/lib/auth/two-step";
import { getConfig } from "@/lib/config";
import { getDb } from "@/lib/db";
import { clientIp } from "@/lib/http/client-ip";
import { safeRedirectPath } from "@/lib/http/safe-redirect";
import { findStaffByEmail } from "@/lib/auth/accounts";
import { signInSchema } from "@/lib/client/staff/schemas";
import { safeErrorSummary } from "@/lib/log/safe-error";

/** Wrong e-mail or password: one message for both, so nobody learns which accounts exist. */
export class InvalidCredentials extends CredentialsSignin {
  code = "invalid";
}

/** Right password, two-step sign-in on, no code yet: the form asks for it (the attempt counts until a success). */
export class CodeRequired extends CredentialsSignin {
  code = "code-required";
}

/** Right password, wrong or already used code: counts toward the throttle like a wrong password. */
export class WrongCode extends CredentialsSignin {
  code = "bad-code";
}

/** The account's second step cannot be checked here (AUTH_SECRET changed): an admin resets it. */
export class SecondStepUnreadable extends CredentialsSignin {
  code = "two-step-unreadable";
}

/** Too many failures; the code carries the minutes to wait. */
export class Throttled extends CredentialsSignin {
  constructor(minutes: number) {
    super();
    this.code = `throttled-${minutes}`;
  }
}

export const SESSION_MAX_AGE_S = 12 * 60 * 60;

export const { handlers, auth, signIn, signOut } = NextAuth(() => {
  const config = getConfig();
  return {
    secret: config.authSecret,
    trustHost: true,
    useSecureCookies: config.appUrl.startsWith("https://"),
    session: { strategy: "jwt", maxAge: SESSION_MAX_AGE_S },
    pages: { signIn: "/sign-in", error: "/sign-in" },
    // A wrong password is an expected outcome (already audited), not a server error with a stack trace.
    logger: {
      error(error) {
        if (
          error instanceof CredentialsSignin ||
          error.name === "CredentialsSignin" ||
          (error.cause as { err?: unknown } | undefined)?.err instanceof CredentialsSignin
        )
          return;
        console.error(`[auth] ${safeErrorSummary(error)}`);
      },
      warn(code) {
        console.warn(`[auth] warning: ${code}`);
      },
      debug() {},
    },
    providers: [
      Credentials({
        id: "credentials",
        credentials: {
          email: { label: "E-mail", type: "email" },
          password: { label: "Password", type: "password" },
          code: { label: "Code from your authenticator app, or a recovery code", type: "text" },
        },
        async authorize(raw, request) {
          const parsed = signInSchema.safeParse(raw);
          if (!parsed.success) throw new InvalidCredentials();
          const { email, password, code } = parsed.data;
          const ip = clientIp(request.headers);
          const db = await getDb();
          const verdict = await beginAttempt(db, email, ip);
          if (!verdict.allowed) {
            await writeRefusedSignIn(db, { action: "auth.sign_in_throttled", reason: "throttled", ip });
            throw new Throttled(verdict.retryAfterMinutes);
          }
          const row = await findStaffByEmail(db, email);
          const valid = await verifyPassword(row?.passwordHash ?? null, password);
          if (!row || !valid || row.disabled) {
            // The claimed attempt stays as the recorded failure.
            await pruneAttempts(db);
            // A known account's failures are its own rows (at most 5 per 15 minutes by the throttle); an unknown
            // e-mail is attacker-chosen text, so it is folded and not kept (lib/audit/write.ts).
            if (row) {
              const reason = row.disabled ? "account disabled" : "wrong password";
              await writeAudit(db, { action: "auth.sign_in_failed", actor: { id: row.id, email: row.email }, ip, detail: { reason } });
            } else await writeRefusedSignIn(db, { action: "auth.sign_in_failed", reason: "unknown e-mail", ip });
            throw new InvalidCredentials();
          }
          let secondStep: string | null = null;
          if (row.totpSecret !== null) {
            // The claimed attempt stays recorded for both: a code is guessed under the same limit as a password.
            if (!code) throw new CodeRequired();
            secondStep = await checkSecondStep(db, row, code, config.authSecret).catch((error: unknown) => {
              if (!(error instanceof TwoStepUnreadable)) throw error;
              console.error(`[auth] the two-step secret of staff ${row.id} does not open with this AUTH_SECRET; an admin must reset it`);
              throw new SecondStepUnreadable();
            });
            if (!secondStep) {
              await writeAudit(db, { action: "auth.sign_in_failed", actor: { id: row.id, email }, ip, detail: { reason: "wrong or used code" } });
              throw new WrongCode();
            }
          }
          await clearFailures(db, email);
          const sessionId = await startSession(db, { staffId: row.id, userAgent: request.headers.get("user-agent"), ip });
          await writeAudit(db, { action: "auth.sign_in", actor: { id: row.id, email: row.email }, ip, detail: { session: sessionId, secondStep } });
          return { id: row.id, email: row.email, name: row.name, sessionId };
        },
      }),
    ],
    events: {
      // Sign-out ends the session row, so a copy of the cookie is refused from then on.
      async signOut(message) {
        const token = "token" in message ? message.token : null;
        if (token?.sub && token.sid) await endSession(await getDb(), token.sub, token.sid, "signed_out");
      },
    },
    callbacks: {
      // Every redirect next-auth makes from input goes through the one check (docs/architecture.md).
      redirect({ url, baseUrl }) {
        const origin = new URL(baseUrl).origin;
        const path = url.startsWith(`${origin}/`) ? url.slice(origin.length) : url;
        return `${origin}${safeRedirectPath(path, origin)}`;
      },
      jwt({ token, user }) {
        // The cookie names the sign-in's session row (lib/auth/sessions.ts), kept through every re-encoding.
        if (user?.id) {
          token.sub = user.id;
          token.sid = user.sessionId;
        }
        return token;
      },
      session({ session, token }) {
        if (token.sub) session.user.id = token.sub;
        if (typeof token.sid === "string") session.sessionId = token.sid;
        return session;
      },
    },
  };
});

declare module "next-auth" {
  interface Session {
    /** The session row of this sign-in (see the jwt callback). */
    sessionId?: string;
  }
  interface User {
    sessionId?: string;
  }
}

declare module "@auth/core/jwt" {
  interface JWT {
    sid?: string;
  }
}
