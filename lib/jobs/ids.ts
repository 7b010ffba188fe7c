import { createHash } from "node:crypto";

/**
 * The one job id a piece of work can have (`namespace` + `key`), so sending it twice inserts nothing.
 * Shaped as a version-5-style uuid, since pg-boss ids are uuids.
 */
export function derivedJobId(namespace: string, key: string): string {
  const hex = createHash("sha256").update(`${namespace}:${key}`).digest("hex");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-5${hex.slice(13, 16)}-${((parseInt(hex.slice(16, 18), 16) & 0x3f) | 0x80).toString(16)}${hex.slice(18, 20)}-${hex.slice(20, 32)}`;
}
