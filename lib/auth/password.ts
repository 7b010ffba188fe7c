import "server-only";

import { hash, verify } from "@node-rs/argon2";

// argon2id with the library's defaults (19 MiB, 2 passes): OWASP's minimum recommendation.
export function hashPassword(password: string): Promise<string> {
  return hash(password);
}

// Compared against when the e-mail is unknown, so a miss costs as long as a hit.
const DUMMY_HASH = "$argon2id$v=19$m=19456,t=2,p=1$qUv1TqyVUcDj8IJMM1XGUA$jss8VeohfF2KnQwOHVKQci3vND++gEZY5oeNxRwCVvk";

export async function verifyPassword(passwordHash: string | null, password: string): Promise<boolean> {
  try {
    const ok = await verify(passwordHash ?? DUMMY_HASH, password);
    return passwordHash !== null && ok;
  } catch {
    return false;
  }
}
