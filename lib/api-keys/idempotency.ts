import "server-only";

import { createHash } from "node:crypto";

import { and, eq, isNull, sql } from "drizzle-orm";

import { openSecret, sealSecret } from "@/lib/auth/secret-box";
import { getConfig } from "@/lib/config";
import type { Db } from "@/lib/db/client";
import { apiIdempotency } from "@/lib/db/schema";

// The Idempotency-Key header of /api/v1 POSTs (the IETF Idempotency-Key draft; docs/architecture.md "The API"): one
// row per (API key, key), claimed by insert, so two identical POSTs at once run once. Kept 24 h.

export const KEPT_HOURS = 24;
// A claim with no answer after this long was left by a process that died mid-call: the next try may take it over.
const ABANDONED_SECONDS = 120;

export type Claim = { kind: "new" } | { kind: "replay"; status: number; body: string } | { kind: "reused" } | { kind: "in_flight" };

/** The body's fingerprint: method, path and bytes. */
export function requestHash(method: string, path: string, body: Buffer): string {
  return createHash("sha256").update(`${method} ${path}\n`).update(body).digest("hex");
}

/** Claims (apiKeyId, key) for this request, or says why not: replay, another body, or still running. */
export async function claimIdempotencyKey(db: Db, apiKeyId: string, key: string, hash: string): Promise<Claim> {
  for (let attempt = 0; attempt < 3; attempt++) {
    // A row older than 24 h is gone as far as the caller is concerned.
    await db
      .delete(apiIdempotency)
      .where(
        and(
          eq(apiIdempotency.apiKeyId, apiKeyId),
          eq(apiIdempotency.key, key),
          sql`${apiIdempotency.createdAt} < now() - make_interval(hours => ${KEPT_HOURS})`,
        ),
      );
    const inserted = await db.insert(apiIdempotency).values({ apiKeyId, key, requestHash: hash }).onConflictDoNothing().returning({ key: apiIdempotency.key });
    if (inserted.length > 0) return { kind: "new" };
    const [row] = await db
      .select()
      .from(apiIdempotency)
      .where(and(eq(apiIdempotency.apiKeyId, apiKeyId), eq(apiIdempotency.key, key)))
      .limit(1);
    if (!row) continue; // answered with a failure and released meanwhile: claim again
    if (row.requestHash !== hash) return { kind: "reused" };
    if (row.status !== null && row.body !== null) {
      const body = openAnswer(row.body);
      if (body !== null) return { kind: "replay", status: row.status, body };
      // Sealed under another AUTH_SECRET: unreadable, so released and run again (the use cases are idempotent).
      await db.delete(apiIdempotency).where(and(eq(apiIdempotency.apiKeyId, apiKeyId), eq(apiIdempotency.key, key)));
      continue;
    }
    const taken = await db
      .update(apiIdempotency)
      .set({ createdAt: sql`now()` })
      .where(
        and(
          eq(apiIdempotency.apiKeyId, apiKeyId),
          eq(apiIdempotency.key, key),
          isNull(apiIdempotency.status),
          sql`${apiIdempotency.createdAt} < now() - make_interval(secs => ${ABANDONED_SECONDS})`,
        ),
      )
      .returning({ key: apiIdempotency.key });
    return taken.length > 0 ? { kind: "new" } : { kind: "in_flight" };
  }
  return { kind: "in_flight" };
}

/** Answers that say "try again" are not kept (the draft leaves that to the server): a conflict with the state of the
 * moment (409: still sending, a draft limit), a rate limit (429) and a failure of ours or the service's (5xx). */
export function isRetryable(status: number): boolean {
  return status >= 500 || status === 409 || status === 429;
}

/**
 * Keeps the answer to replay, sealed (it may hold a payer's contact or an endpoint's signing secret, shown once); an
 * answer that says "try again" releases the key so the same key may (the use cases are idempotent themselves).
 */
export async function settleIdempotencyKey(db: Db, apiKeyId: string, key: string, status: number, body: string): Promise<void> {
  const where = and(eq(apiIdempotency.apiKeyId, apiKeyId), eq(apiIdempotency.key, key));
  if (isRetryable(status)) await db.delete(apiIdempotency).where(where);
  else
    await db
      .update(apiIdempotency)
      .set({ status, body: sealSecret(body, getConfig().authSecret, PURPOSE) })
      .where(where);
}

const PURPOSE = "fundboard idempotent answer v1";

function openAnswer(sealed: string): string | null {
  try {
    return openSecret(sealed, getConfig().authSecret, PURPOSE);
  } catch {
    return null;
  }
}
