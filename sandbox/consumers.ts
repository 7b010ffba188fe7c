// Consumer-app users: a few named seeds, and stable fake identities for any other tag.
import { createHash } from "node:crypto";
import type { Consumer } from "./types";

export const TAG_PATTERN = /^[A-Za-z0-9._-]{2,32}$/;

const FIRST_NAMES = [
  "Amaka",
  "Bola",
  "Chidi",
  "Damilola",
  "Emeka",
  "Funke",
  "Gbenga",
  "Halima",
  "Ifeoma",
  "Jide",
  "Kemi",
  "Lanre",
  "Musa",
  "Ngozi",
  "Obinna",
  "Segun",
  "Temi",
  "Uche",
  "Yemi",
  "Zainab",
] as const;
const LAST_NAMES = ["Adeyemi", "Okafor", "Balogun", "Nwosu", "Ibrahim", "Okonkwo", "Adebayo", "Eze", "Olawale", "Uzor", "Abubakar", "Onyeka"] as const;

/** Tags the service answers as "no such user". */
export function isMissingTag(tag: string): boolean {
  return tag.startsWith("missing");
}

/** The same tag always yields the same fake person, so tests can predict it. */
export function deriveConsumer(tag: string): Consumer {
  const hash = createHash("sha256").update(`consumer:${tag}`).digest();
  const first = pick(FIRST_NAMES, hash.readUInt16BE(16));
  const last = pick(LAST_NAMES, hash.readUInt16BE(18));
  return {
    uuid: uuidFrom(hash),
    tag,
    name: `${first} ${last}`,
    email: `${first}.${last}.${hash.subarray(20, 22).toString("hex")}@example.com`.toLowerCase(),
    phone: `+23480${digitsFrom(hash.subarray(22, 26), 8)}`,
    bvn: `22${digitsFrom(hash.subarray(26, 32), 9)}`,
  };
}

export function seededConsumers(): Consumer[] {
  const named: [tag: string, name: string][] = [
    ["ada.obi", "Ada Obi"],
    ["tunde.bakare", "Tunde Bakare"],
    ["chioma.eze", "Chioma Eze"],
    ["accept.auto", "Auto Accept"],
    ["decline.auto", "Auto Decline"],
  ];
  return named.map(([tag, name]) => ({ ...deriveConsumer(tag), name, email: `${tag}@example.com` }));
}

function pick<T>(items: readonly T[], n: number): T {
  const item = items[n % items.length];
  if (item === undefined) throw new Error("cannot pick from an empty list");
  return item;
}

function digitsFrom(bytes: Buffer, count: number): string {
  const n = BigInt(`0x${bytes.toString("hex")}`) % 10n ** BigInt(count);
  return n.toString().padStart(count, "0");
}

// Version-4 layout so strict uuid validators accept it.
function uuidFrom(hash: Buffer): string {
  const bytes = Buffer.from(hash.subarray(0, 16));
  bytes.writeUInt8((bytes.readUInt8(6) & 0x0f) | 0x40, 6);
  bytes.writeUInt8((bytes.readUInt8(8) & 0x3f) | 0x80, 8);
  const hex = bytes.toString("hex");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
