// Idempotency keys live in namespaces, so a key a client sends can never be one the dashboard makes itself.

declare const stored: unique symbol;
/** An idempotency key as stored in fund_requests.idempotency_key: made only by the functions below. */
export type StoredKey = string & { readonly [stored]: true };

const CLIENT_PREFIX = "client:";

/** A client's key (the form's, the API's: `[A-Za-z0-9_-]{8,64}`), stored as `client:<key>`. */
export function clientKey(key: string): StoredKey {
  return `${CLIENT_PREFIX}${key}` as StoredKey;
}

/** A campaign row's key: never starts with `client:`, so no client key can take it. */
export function campaignRowKey(campaignId: string, row: number): StoredKey {
  return `cmp_${campaignId}_${row}` as StoredKey;
}
