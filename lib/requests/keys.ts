// Idempotency keys live in namespaces, so a key a client sends can never be one the dashboard makes itself.

declare const stored: unique symbol;
/** An idempotency key as stored in fund_requests.idempotency_key: made only by the functions below. */
export type StoredKey = string & { readonly [stored]: true };

const CLIENT_PREFIX = "client:";

/** A client's key (the form's, the API's: `[A-Za-z0-9_-]{8,64}`), stored as `client:<key>`. */
export function clientKey(key: string): StoredKey {
  return `${CLIENT_PREFIX}${key}` as StoredKey;
}

/**
 * True for a request body (a JSON object) that has no idempotencyKey, or an empty one: POST /api/requests answers it
 * `idempotency_key_missing` (docs/architecture.md, "Error codes"). A body that is no object at all is not counted.
 */
export function lacksClientKey(body: unknown): boolean {
  if (typeof body !== "object" || body === null || Array.isArray(body)) return false;
  const key = (body as { idempotencyKey?: unknown }).idempotencyKey;
  return key === undefined || key === null || key === "";
}

/** What every campaign row's key starts with (a request sent on its own has a `client:` key, or none). */
export const CAMPAIGN_KEY_PREFIX = "cmp_";

/** A campaign row's key: never starts with `client:`, so no client key can take it. */
export function campaignRowKey(campaignId: string, row: number): StoredKey {
  return `${CAMPAIGN_KEY_PREFIX}${campaignId}_${row}` as StoredKey;
}

/** A pay page submission's key: one request a submission, however often the send job runs it. */
export function payPageKey(submissionId: string): StoredKey {
  return `pp_${submissionId}` as StoredKey;
}

const CAMPAIGN_ROW_KEY = /^cmp_([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})_\d+$/i;

/** The campaign whose row made this request (from its stored key), or null for any other request. */
export function campaignOfKey(key: string | null): string | null {
  return key === null ? null : (CAMPAIGN_ROW_KEY.exec(key)?.[1]?.toLowerCase() ?? null);
}
