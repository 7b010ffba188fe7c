import "server-only";

import { hkdfSync } from "node:crypto";

// One key per purpose from AUTH_SECRET (HKDF-SHA256, the purpose as `info`): sealing two-step secrets and
// hashing recovery codes never share a key. A few are cached; AUTH_SECRET rarely differs within a process.
const KEY_CACHE_LIMIT = 8;
const keys = new Map<string, Buffer>();

export function derivedKey(authSecret: string, info: string): Buffer {
  if (!authSecret) throw new Error("AUTH_SECRET is empty");
  const cacheKey = `${info}\u0000${authSecret}`;
  let key = keys.get(cacheKey);
  if (!key) {
    key = Buffer.from(hkdfSync("sha256", authSecret, Buffer.alloc(0), info, 32));
    if (keys.size >= KEY_CACHE_LIMIT) keys.clear();
    keys.set(cacheKey, key);
  }
  return key;
}
