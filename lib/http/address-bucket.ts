import "server-only";

import { createHmac } from "node:crypto";
import ipaddr from "ipaddr.js";

import { derivedKey } from "@/lib/auth/derived-key";
import { getConfig } from "@/lib/config";

// What a per-address limit counts (the pay pages' submissions, refused API keys): never the address itself.

/**
 * What the limits count for an address: an IPv4 address as it is, an IPv6 address by its /64 (one host holds a whole
 * /64, so counting each address would let it use a new one per try); a port or brackets a proxy wrote are dropped.
 */
export function addressBucket(ip: string | null): string {
  const text = (ip ?? "").trim();
  const bare = /^\[([^\]]+)\](?::\d+)?$/.exec(text)?.[1] ?? /^(\d{1,3}(?:\.\d{1,3}){3}):\d+$/.exec(text)?.[1] ?? text;
  if (!ipaddr.isValid(bare)) return bare || "unknown";
  const parsed = ipaddr.process(bare);
  if (parsed.kind() === "ipv4") return parsed.toString();
  return `${(parsed as ipaddr.IPv6).parts
    .slice(0, 4)
    .map((p) => p.toString(16))
    .join(":")}::/64`;
}

/** A keyed hash of the address's bucket, its key derived for `purpose`: two limits' tables cannot be joined. */
export function hashedAddress(ip: string | null, purpose: string): string {
  return createHmac("sha256", derivedKey(getConfig().authSecret, purpose)).update(addressBucket(ip)).digest("base64url");
}
