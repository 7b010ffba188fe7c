// The service's side of a webhook delivery: the signature it sends with the exact body.
import { createHmac } from "node:crypto";

export const SIGNATURE_HEADER = "x-service-signature";

/** Lower-case hex HMAC-SHA512 of the exact body bytes with the API key. */
export function deliverySignature(body: string | Buffer, key: string): string {
  return createHmac("sha512", key).update(body).digest("hex");
}

/** Headers of a correctly signed JSON delivery. */
export function signedHeaders(body: string, key: string): Record<string, string> {
  return { "content-type": "application/json", [SIGNATURE_HEADER]: deliverySignature(body, key) };
}
