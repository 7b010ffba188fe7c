import "server-only";

import { createHash } from "node:crypto";

/**
 * The request's own idempotency key for an API call: derived from the API key and its Idempotency-Key header, so a
 * retry of the same call (even after its answer was lost) finds the same request and never sends twice.
 */
export function requestKeyForApi(apiKeyId: string, idempotencyKey: string): string {
  return `api_${createHash("sha256").update(`${apiKeyId}\n${idempotencyKey}`).digest("base64url").slice(0, 40)}`;
}
