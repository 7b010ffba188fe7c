import "server-only";

import { randomUUID } from "node:crypto";

import { auditActorOf, auditIpOf, type Actor } from "@/lib/actors/actor";
import { authorizeStaff } from "@/lib/actors/permissions";
import { writeAudit } from "@/lib/audit/write";
import type { ApiScope } from "@/lib/client/auth/permissions";
import { MAX_EXPIRY_DAYS, presetScopes, type ApiKeyCreate, type ApiKeyCreated, type ApiKeyView } from "@/lib/client/api-keys/schemas";
import { getConfig } from "@/lib/config";
import type { Db } from "@/lib/db/client";

import type { KeyMode } from "./key";
import { findKey, findKeyWithCreator, insertKey, listKeys, markRevoked, markRolled, toKeyView } from "./store";

// An admin's API keys (docs/architecture.md "The API"): make, list, roll, revoke. Only people hold `api_keys.manage`,
// so a key can never make or change keys. Each change and its audit row are one transaction.

const DAY_MS = 24 * 60 * 60 * 1000;

type NotFound = { kind: "not_found" };

/** Keys of this deployment's kind: `fb_test_` in sandbox mode, `fb_live_` with a real service. */
export function deploymentKeyMode(): KeyMode {
  return getConfig().sandbox ? "test" : "live";
}

const hintOf = (view: ApiKeyView) => view.hint;

export async function listApiKeys(db: Db, actor: Actor): Promise<ApiKeyView[]> {
  authorizeStaff(actor, "api_keys.manage");
  return (await listKeys(db)).map(toKeyView);
}

/** A new key, answered whole this once. */
export async function createApiKey(db: Db, actor: Actor, input: ApiKeyCreate, now = new Date()): Promise<ApiKeyCreated> {
  const person = authorizeStaff(actor, "api_keys.manage");
  const scopes = typeof input.scopes === "string" ? presetScopes(input.scopes) : [...new Set(input.scopes)];
  return db.transaction(async (tx) => {
    const { row, key } = await insertKey(tx, {
      name: input.name,
      mode: deploymentKeyMode(),
      scopes,
      expiresAt: new Date(now.getTime() + input.expiresInDays * DAY_MS),
      readsPerMinute: input.readsPerMinute,
      writesPerMinute: input.writesPerMinute,
      createdBy: person.id,
    });
    const apiKey = toKeyView({ row, creatorName: person.name });
    await writeAudit(tx, {
      action: "api_key.created",
      actor: auditActorOf(actor),
      ip: auditIpOf(actor),
      target: row.id,
      detail: { name: row.name, hint: hintOf(apiKey), scopes, expiresAt: apiKey.expiresAt },
    });
    return { apiKey, key };
  });
}

/** Revoking is for good: the key answers 401 from the next call. */
export async function revokeApiKey(
  db: Db,
  actor: Actor,
  id: string,
): Promise<{ kind: "revoked"; apiKey: ApiKeyView } | NotFound | { kind: "already"; apiKey: ApiKeyView }> {
  authorizeStaff(actor, "api_keys.manage");
  return db.transaction(async (tx) => {
    const before = await findKeyWithCreator(tx, id);
    if (!before) return { kind: "not_found" } as const;
    const row = await markRevoked(tx, id);
    if (!row) return { kind: "already", apiKey: toKeyView(before) } as const;
    const apiKey = toKeyView({ row, creatorName: before.creatorName });
    await writeAudit(tx, {
      action: "api_key.revoked",
      actor: auditActorOf(actor),
      ip: auditIpOf(actor),
      target: id,
      detail: { name: row.name, hint: apiKey.hint },
    });
    return { kind: "revoked", apiKey } as const;
  });
}

/**
 * A new key with the same name, scopes and limits, for as many days as the old one was given; the old one keeps
 * working for `overlapHours` (0: it stops now), so a deployment can switch without a gap.
 */
export async function rollApiKey(
  db: Db,
  actor: Actor,
  id: string,
  overlapHours: number,
  now = new Date(),
): Promise<({ kind: "rolled" } & ApiKeyCreated) | NotFound | { kind: "refused"; message: string }> {
  const person = authorizeStaff(actor, "api_keys.manage");
  return db.transaction(async (tx) => {
    const old = await findKey(tx, id);
    if (!old) return { kind: "not_found" } as const;
    if (old.revokedAt) return { kind: "refused", message: "This key is revoked; make a new key instead." } as const;
    if (old.replacedBy) return { kind: "refused", message: "This key was already rolled; roll the key that replaced it." } as const;
    if (old.expiresAt.getTime() <= now.getTime()) return { kind: "refused", message: "This key has expired; make a new key instead." } as const;
    const days = Math.max(1, Math.round((old.expiresAt.getTime() - old.createdAt.getTime()) / DAY_MS));
    // The old key is marked first: that conditional update is what stops two rolls at once from both making a key.
    const newId = randomUUID();
    if (!(await markRolled(tx, old.id, newId, overlapHours))) return { kind: "refused", message: "This key changed meanwhile; reload and try again." } as const;
    const { row, key } = await insertKey(tx, {
      id: newId,
      name: old.name,
      mode: old.mode,
      scopes: old.scopes as ApiScope[],
      expiresAt: new Date(now.getTime() + Math.min(days, MAX_EXPIRY_DAYS) * DAY_MS),
      readsPerMinute: old.readsPerMinute,
      writesPerMinute: old.writesPerMinute,
      createdBy: person.id,
      rolledFrom: old.id,
    });
    const apiKey = toKeyView({ row, creatorName: person.name });
    await writeAudit(tx, {
      action: "api_key.rolled",
      actor: auditActorOf(actor),
      ip: auditIpOf(actor),
      target: old.id,
      detail: { name: old.name, hint: `${old.prefix}…${old.last4}`, newKey: row.id, newHint: apiKey.hint, overlapHours },
    });
    return { kind: "rolled", apiKey, key } as const;
  });
}
