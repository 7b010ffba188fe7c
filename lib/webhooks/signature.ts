import "server-only";

import { createHmac, timingSafeEqual } from "node:crypto";

export type SignatureVerdict = "valid" | "valid_reserialised" | "missing" | "malformed" | "mismatch";

const HEX_512 = /^[0-9a-fA-F]{128}$/;

function hmacHex(key: string, message: Buffer | string): Buffer {
  return createHmac("sha512", key).update(message).digest();
}

/**
 * HMAC-SHA512 of the exact bytes received, compared in constant time; failing that, of the body
 * re-serialised (the interface says "the JSON-serialised request body"). Upper-case hex is
 * accepted: hex is case-blind, so this widens nothing an attacker could use.
 */
export function verifySignature(raw: Buffer, header: string | null, key: string): SignatureVerdict {
  if (header === null || header.trim() === "") return "missing";
  const given = header.trim();
  if (!HEX_512.test(given)) return "malformed";
  const presented = Buffer.from(given, "hex");
  const matches = (message: Buffer | string) => {
    const expected = hmacHex(key, message);
    return expected.length === presented.length && timingSafeEqual(expected, presented);
  };
  if (matches(raw)) return "valid";
  let reserialised: string | null = null;
  try {
    reserialised = JSON.stringify(JSON.parse(raw.toString("utf8")));
  } catch {
    reserialised = null;
  }
  return reserialised !== null && matches(reserialised) ? "valid_reserialised" : "mismatch";
}
