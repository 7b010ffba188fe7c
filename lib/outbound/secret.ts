import "server-only";

import { randomBytes } from "node:crypto";

// Endpoint signing secrets for outgoing webhooks (docs/architecture.md "Outgoing webhooks: the primitives"): the
// Standard Webhooks form, `whsec_` + base64 of 32 random bytes; the HMAC key is the decoded bytes.

export const WEBHOOK_SECRET_PREFIX = "whsec_";
const SECRET_BYTES = 32;

/** A fresh secret: `whsec_` + base64 of 32 random bytes (shown to an admin once, at creation or on a reveal). */
export function newWebhookSecret(): string {
  return WEBHOOK_SECRET_PREFIX + randomBytes(SECRET_BYTES).toString("base64");
}

/** The HMAC key a secret stands for; throws on a string that is not `whsec_` + base64 of at least one byte. */
export function secretBytes(secret: string): Buffer {
  const encoded = secret.startsWith(WEBHOOK_SECRET_PREFIX) ? secret.slice(WEBHOOK_SECRET_PREFIX.length) : secret;
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(encoded) || encoded.length % 4 !== 0) throw new Error("A webhook secret must be whsec_ followed by base64");
  return Buffer.from(encoded, "base64");
}
