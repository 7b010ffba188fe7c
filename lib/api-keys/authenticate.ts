import "server-only";

import type { ApiKeyActor } from "@/lib/actors/actor";
import type { ApiScope } from "@/lib/client/auth/permissions";
import type { Db } from "@/lib/db/client";
import type { ApiKeyRow } from "@/lib/db/schema";
import { unauthorized } from "@/lib/http/api-error";

import { hashApiKey, keyModeOf, type KeyMode } from "./key";
import { deploymentKeyMode } from "./manage";
import { findKeyByHash, keyState } from "./store";

// Who an /api/v1 call is (docs/architecture.md "The API"): the Bearer key's hash looked up, its kind checked against
// the deployment's, then revoked and expired refused. Every refusal is a 401 about the key sent and nothing else.

const KIND_WORDS: Record<KeyMode, string> = { test: "a test key (fb_test_…)", live: "a live key (fb_live_…)" };
const DEPLOYMENT_WORDS: Record<KeyMode, string> = {
  test: "this deployment runs against the sandbox and takes only test keys (fb_test_…)",
  live: "this deployment runs against the real service and takes only live keys (fb_live_…)",
};

export interface Authenticated {
  actor: ApiKeyActor;
  row: ApiKeyRow;
}

/** The key's actor, or a 401 saying what is wrong with the key sent. */
export async function authenticateKey(db: Db, authorization: string | null, ip: string | null, now = new Date()): Promise<Authenticated> {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? "");
  if (!match?.[1]) throw unauthorized("Send your API key as the header Authorization: Bearer fb_… (make one on /developers/api-keys).");
  const key = match[1];
  const mode = keyModeOf(key);
  if (!mode) throw unauthorized("This is not a Fundboard API key: keys start fb_test_ or fb_live_ followed by 43 letters and digits.");
  const expected = deploymentKeyMode();
  if (mode !== expected) throw unauthorized(`This is ${KIND_WORDS[mode]}, and ${DEPLOYMENT_WORDS[expected]}.`);
  const row = await findKeyByHash(db, hashApiKey(key));
  if (!row) throw unauthorized("This API key is not valid here: check that it was copied whole, or make a new one on /developers/api-keys.");
  const state = keyState(row, now);
  if (state === "revoked") throw unauthorized("This API key was revoked; ask an admin for a new one.");
  if (state === "expired") throw unauthorized("This API key has expired; ask an admin for a new one.");
  if (!row.createdBy) throw unauthorized("This API key's maker no longer has an account; ask an admin for a new key.");
  return {
    row,
    actor: { kind: "api_key", id: row.id, name: row.name, scopes: row.scopes as ApiScope[], ownerId: row.createdBy, ip },
  };
}
