import { randomUUID } from "node:crypto";

import NextAuth, { CredentialsSignin } from "next-auth";
import Credentials from "next-auth/providers/credentials";

import { writeAudit } from "@/lib/audit/write";
import { verifyPassword } from "@/lib/auth/password";
import { beginAttempt, clearFailures, pruneAttempts } from "@/lib/auth/throttle";
import { getConfig } from "@/lib/config";
import { getDb } from "@/lib/db";
import { clientIp } from "@/lib/http/client-ip";
import { safeRedirectPath } from "@/lib/http/safe-redirect";
import { findStaffByEmail } from "@/lib/staff/repo";
import { signInSchema } from "@/lib/staff/schemas";
import { safeErrorSummary } from "@/lib/log/safe-error";

/** Wrong e-mail or password: one message for both, so nobody learns which accounts exist. */
export class InvalidCredentials extends CredentialsSignin {
  code = "invalid";
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
        credentials: { email: { label: "E-mail", type: "email" }, password: { label: "Password", type: "password" } },
        async authorize(raw, request) {
          const parsed = signInSchema.safeParse(raw);
          if (!parsed.success) throw new InvalidCredentials();
          const { email, password } = parsed.data;
          const ip = clientIp(request.headers);
          const db = await getDb();
          const verdict = await beginAttempt(db, email, ip);
          if (!verdict.allowed) {
            await writeAudit(db, { action: "auth.sign_in_throttled", actor: { id: null, email }, ip });
            throw new Throttled(verdict.retryAfterMinutes);
          }
          const row = await findStaffByEmail(db, email);
          const valid = await verifyPassword(row?.passwordHash ?? null, password);
          if (!row || !valid || row.disabled) {
            // The claimed attempt stays as the recorded failure.
            await pruneAttempts(db);
            await writeAudit(db, {
              action: "auth.sign_in_failed",
              actor: { id: row?.id ?? null, email },
              ip,
              detail: { reason: !row ? "unknown e-mail" : row.disabled ? "account disabled" : "wrong password" },
            });
            throw new InvalidCredentials();
          }
          await clearFailures(db, email);
          await writeAudit(db, { action: "auth.sign_in", actor: { id: row.id, email: row.email }, ip });
          return { id: row.id, email: row.email, name: row.name };
        },
      }),
    ],
    callbacks: {
      // Every redirect next-auth makes from input goes through the one check (docs/architecture.md).
      redirect({ url, baseUrl }) {
        const origin = new URL(baseUrl).origin;
        const path = url.startsWith(`${origin}/`) ? url.slice(origin.length) : url;
        return `${origin}${safeRedirectPath(path, origin)}`;
      },
      jwt({ token, user }) {
        // A sign-in gets its own id, kept through every re-encoding: live streams are counted per session.
        if (user?.id) {
          token.sub = user.id;
          token.sid = randomUUID();
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
    /** The sign-in this session came from (see the jwt callback). */
    sessionId?: string;
  }
}

declare module "@auth/core/jwt" {
  interface JWT {
    sid?: string;
  }
}
