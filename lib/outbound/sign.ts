import "server-only";

import { Webhook } from "standardwebhooks";

// Standard Webhooks v1 signing of one outgoing delivery (docs/architecture.md "Outgoing webhooks: the primitives").
// The `standardwebhooks` package computes each signature, so the bytes are exactly the spec's; this module only
// joins them and names the headers (docs/decisions.md "Outgoing webhooks: signing and the address guard (issue 40)").

/** The largest body (the event's JSON, in UTF-8 bytes) an outgoing delivery carries: a larger event is cut down (body.ts). */
export const BODY_LIMIT_BYTES = 64 * 1024;

export interface DeliveryToSign {
  /** The event id: the same on every attempt, so receivers can drop repeats. */
  id: string;
  /** When this attempt is made; sent as whole unix seconds. */
  timestamp: Date;
  /** The exact body that will be sent: the signature covers these characters. */
  body: string;
  /** One secret, or two while a rotated-out one overlaps the new one (`whsec_…`). */
  secrets: readonly string[];
}

/** The three Standard Webhooks headers for one attempt: `webhook-signature` holds one `v1,<base64>` per secret. */
export function signDelivery({ id, timestamp, body, secrets }: DeliveryToSign): Record<string, string> {
  if (secrets.length === 0) throw new Error("signDelivery needs at least one secret");
  const signatures = secrets.map((secret) => new Webhook(secret).sign(id, timestamp, body));
  return {
    "webhook-id": id,
    "webhook-timestamp": String(Math.floor(timestamp.getTime() / 1000)),
    "webhook-signature": signatures.join(" "),
  };
}
