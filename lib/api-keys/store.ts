import "server-only";

import { and, desc, eq, isNull, sql } from "drizzle-orm";

import type { ApiScope } from "@/lib/client/auth/permissions";
import type { ApiKeyState, ApiKeyView } from "@/lib/client/api-keys/schemas";
import type { Db } from "@/lib/db/client";
import { apiKeys, staff, type ApiKeyRow } from "@/lib/db/schema";

import { hashApiKey, keyPrefix, lastFour, newApiKey, type KeyMode } from "./key";

// The api_keys table's reads and writes (its one writer: lib/api-keys, docs/architecture.md "Owners").

export interface NewKeyValues {
  /** Given when the caller must know it first (a roll marks the old key with it). */
  id?: string;
  name: string;
  mode: KeyMode;
  scopes: ApiScope[];
  expiresAt: Date;
  readsPerMinute: number;
  writesPerMinute: number;
  createdBy: string | null;
  rolledFrom?: string;
}

/** Makes a key and stores its hash: the plaintext is in the answer only. */
export async function insertKey(db: Db, values: NewKeyValues): Promise<{ row: ApiKeyRow; key: string }> {
  const key = newApiKey(values.mode);
  const [row] = await db
    .insert(apiKeys)
    .values({
      ...(values.id ? { id: values.id } : {}),
      name: values.name,
      mode: values.mode,
      keyHash: hashApiKey(key),
      prefix: keyPrefix(values.mode),
      last4: lastFour(key),
      scopes: values.scopes,
      expiresAt: values.expiresAt,
      readsPerMinute: values.readsPerMinute,
      writesPerMinute: values.writesPerMinute,
      createdBy: values.createdBy,
      rolledFrom: values.rolledFrom ?? null,
    })
    .returning();
  if (!row) throw new Error("the API key was not stored");
  return { row, key };
}

export async function findKey(db: Db, id: string): Promise<ApiKeyRow | null> {
  const [row] = await db.select().from(apiKeys).where(eq(apiKeys.id, id)).limit(1);
  return row ?? null;
}

export async function findKeyByHash(db: Db, hash: string): Promise<ApiKeyRow | null> {
  const [row] = await db.select().from(apiKeys).where(eq(apiKeys.keyHash, hash)).limit(1);
  return row ?? null;
}

export interface KeyWithCreator {
  row: ApiKeyRow;
  creatorName: string | null;
}

/** One key with its creator's name. */
export async function findKeyWithCreator(db: Db, id: string): Promise<KeyWithCreator | null> {
  const [row] = await db
    .select({ row: apiKeys, creatorName: staff.name })
    .from(apiKeys)
    .leftJoin(staff, eq(staff.id, apiKeys.createdBy))
    .where(eq(apiKeys.id, id))
    .limit(1);
  return row ?? null;
}

/** Every key, newest first, with its creator's name. */
export async function listKeys(db: Db): Promise<KeyWithCreator[]> {
  const rows = await db
    .select({ row: apiKeys, creatorName: staff.name })
    .from(apiKeys)
    .leftJoin(staff, eq(staff.id, apiKeys.createdBy))
    .orderBy(desc(apiKeys.createdAt), desc(apiKeys.id));
  return rows;
}

/** Sets revoked_at once; a revoked key stays revoked. Null when there was no live key to revoke. */
export async function markRevoked(db: Db, id: string): Promise<ApiKeyRow | null> {
  const [row] = await db
    .update(apiKeys)
    .set({ revokedAt: sql`now()` })
    .where(and(eq(apiKeys.id, id), isNull(apiKeys.revokedAt)))
    .returning();
  return row ?? null;
}

/** The old key of a roll: replaced by `by`, ending after the overlap (never later than it would have). */
export async function markRolled(db: Db, id: string, by: string, overlapHours: number): Promise<ApiKeyRow | null> {
  const [row] = await db
    .update(apiKeys)
    .set({ replacedBy: by, expiresAt: sql`least(${apiKeys.expiresAt}, now() + make_interval(hours => ${overlapHours}))` })
    .where(and(eq(apiKeys.id, id), isNull(apiKeys.revokedAt), isNull(apiKeys.replacedBy)))
    .returning();
  return row ?? null;
}

// Writing the last use on every call would put a write on every read: once a minute per key is enough to show.
const LAST_USED_EVERY_SECONDS = 60;

/** Notes when and from where the key was last used, at most once a minute. */
export async function noteUse(db: Db, id: string, ip: string | null): Promise<void> {
  await db
    .update(apiKeys)
    .set({ lastUsedAt: sql`now()`, lastUsedIp: ip })
    .where(and(eq(apiKeys.id, id), sql`(${apiKeys.lastUsedAt} is null or ${apiKeys.lastUsedAt} < now() - make_interval(secs => ${LAST_USED_EVERY_SECONDS}))`));
}

export function keyState(row: ApiKeyRow, now: Date = new Date()): ApiKeyState {
  if (row.revokedAt) return "revoked";
  return row.expiresAt.getTime() <= now.getTime() ? "expired" : "active";
}

export function toKeyView({ row, creatorName }: KeyWithCreator): ApiKeyView {
  return {
    id: row.id,
    name: row.name,
    mode: row.mode,
    hint: `${row.prefix}…${row.last4}`,
    scopes: row.scopes as ApiScope[],
    createdBy: row.createdBy ? { id: row.createdBy, name: creatorName ?? "(removed)" } : null,
    createdAt: row.createdAt.toISOString(),
    expiresAt: row.expiresAt.toISOString(),
    lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
    lastUsedIp: row.lastUsedIp,
    revokedAt: row.revokedAt?.toISOString() ?? null,
    replacedBy: row.replacedBy,
    readsPerMinute: row.readsPerMinute,
    writesPerMinute: row.writesPerMinute,
    state: keyState(row),
  };
}
