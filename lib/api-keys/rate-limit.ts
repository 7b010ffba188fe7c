import "server-only";

import { sql } from "drizzle-orm";

import type { Db } from "@/lib/db/client";

// Calls per key a minute, shared by every instance through api_rate_windows (docs/architecture.md "The API"): one
// upsert per call into the key's current one-minute window, so two instances count into the same row.

export type RateKind = "read" | "write" | "refused";

export interface RateState {
  ok: boolean;
  limit: number;
  remaining: number;
  /** Seconds until the window ends and the count starts again. */
  resetSeconds: number;
  kind: RateKind;
  /** The window the call was counted in (its minute's start, ISO). */
  window: string;
}

const WINDOW_SECONDS = 60;

type WindowRow = { count: number | string; window: string; reset: number | string };

/** What an upsert into a one-minute window answers: the count so far, the window, and the seconds it has left. */
const WINDOW_ANSWER = sql`returning count, to_char(window_start at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI') as window, ceil(extract(epoch from (window_start + make_interval(secs => ${WINDOW_SECONDS}) - now())))::int as reset`;

function windowState(result: unknown, limit: number, kind: RateKind): RateState {
  const row = (result as { rows: WindowRow[] }).rows[0];
  const count = Number(row?.count ?? 1);
  const resetSeconds = Math.max(1, Number(row?.reset ?? WINDOW_SECONDS));
  return { ok: count <= limit, limit, remaining: Math.max(0, limit - count), resetSeconds, kind, window: row?.window ?? "" };
}

/** Counts this call into the key's window of `kind`, answering whether it is within `limit`. */
export async function spendKeyCall(db: Db, apiKeyId: string, kind: Exclude<RateKind, "refused">, limit: number): Promise<RateState> {
  const result = await db.execute(sql`
    insert into api_rate_windows (api_key_id, kind, window_start, count)
    values (${apiKeyId}, ${kind}, date_trunc('minute', now()), 1)
    on conflict (api_key_id, kind, window_start) do update set count = api_rate_windows.count + 1
    ${WINDOW_ANSWER}`);
  return windowState(result, limit, kind);
}

/** Calls a minute an address may make with a key that is refused (missing, wrong, revoked) before it is answered 429. */
export const REFUSED_PER_MINUTE = 600;

/**
 * Counts a call whose key was refused into its address's window (a keyed hash, never the address), shared by every
 * instance: a 401 carries the RateLimit headers of this policy, and guessing keys meets a limit.
 */
export async function spendRefusedCall(db: Db, addressKey: string, limit = REFUSED_PER_MINUTE): Promise<RateState> {
  const result = await db.execute(sql`
    insert into api_address_windows (address_key, window_start, count)
    values (${addressKey}, date_trunc('minute', now()), 1)
    on conflict (address_key, window_start) do update set count = api_address_windows.count + 1
    ${WINDOW_ANSWER}`);
  return windowState(result, limit, "refused");
}

const POLICY_NAMES: Record<RateKind, string> = { read: "reads", write: "writes", refused: "refused-keys" };

/** The IETF RateLimit headers (draft-ietf-httpapi-ratelimit-headers): the policy and what is left of it. */
export function rateLimitHeaders(state: RateState): Record<string, string> {
  const name = POLICY_NAMES[state.kind];
  return {
    "RateLimit-Policy": `"${name}";q=${state.limit};w=${WINDOW_SECONDS}`,
    RateLimit: `"${name}";r=${state.remaining};t=${state.resetSeconds}`,
  };
}
