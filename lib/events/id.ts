import { randomBytes } from "node:crypto";

// Crockford's base32 (no I, L, O, U): ids read aloud or typed survive.
const ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";

function base32(value: bigint, length: number): string {
  let out = "";
  let rest = value;
  for (let i = 0; i < length; i++) {
    out = (ALPHABET[Number(rest & 31n)] ?? "0") + out;
    rest >>= 5n;
  }
  return out;
}

/**
 * `evt_` + 26 characters: 48 bits of milliseconds then 80 random bits (a ULID), so ids sort by when they were made
 * and two instances never make the same one (docs/architecture.md "Events").
 */
export function newEventId(now: number = Date.now()): string {
  const random = BigInt(`0x${randomBytes(10).toString("hex")}`);
  return `evt_${base32(BigInt(now), 10)}${base32(random, 16)}`;
}
