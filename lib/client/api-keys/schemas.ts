import { z } from "zod";

import { API_SCOPES, type ApiScope } from "@/lib/client/auth/permissions";

import { KEY_PRESETS } from "./presets";

// API keys' bodies and answers (docs/architecture.md "The API"): one schema per input, shared by the page's forms
// and the routes.

export { KEY_PRESETS, presetScopes, type KeyPreset } from "./presets";

export const DEFAULT_EXPIRY_DAYS = 90;
export const MAX_EXPIRY_DAYS = 365;
export const ROLL_OVERLAPS = [0, 1, 24, 168] as const;

export const apiKeyCreateSchema = z
  .object({
    name: z.string({ error: "Name the key (what uses it)" }).trim().min(1, "Name the key (what uses it)").max(60, "At most 60 characters"),
    scopes: z.union([z.enum(KEY_PRESETS), z.array(z.enum(API_SCOPES, { error: "Choose scopes from the list" })).min(1, "Choose at least one scope")], {
      error: 'Send "everything", "read_only" or a list of scopes',
    }),
    expiresInDays: z
      .number({ error: "Say in how many days the key expires (1–365)" })
      .int("Whole days")
      .min(1, "At least 1 day")
      .max(MAX_EXPIRY_DAYS, "At most 365 days")
      .default(DEFAULT_EXPIRY_DAYS),
    readsPerMinute: z.number().int().min(1).max(10_000).default(600),
    writesPerMinute: z.number().int().min(1).max(1_000).default(60),
  })
  .strict();
export type ApiKeyCreate = z.output<typeof apiKeyCreateSchema>;

export const apiKeyRollSchema = z
  .object({
    overlapHours: z.union(
      ROLL_OVERLAPS.map((h) => z.literal(h)),
      { error: "The old key may keep working 0, 1, 24 or 168 hours" },
    ),
  })
  .strict();

export type ApiKeyState = "active" | "expired" | "revoked";

export interface ApiKeyView {
  id: string;
  name: string;
  mode: "test" | "live";
  /** The prefix and the last 4 characters ("fb_live_…a1B2"): the whole key is shown once, at creation or a roll. */
  hint: string;
  scopes: ApiScope[];
  createdBy: { id: string; name: string } | null;
  createdAt: string;
  expiresAt: string;
  lastUsedAt: string | null;
  lastUsedIp: string | null;
  revokedAt: string | null;
  /** The key that replaced this one in a roll. */
  replacedBy: string | null;
  readsPerMinute: number;
  writesPerMinute: number;
  state: ApiKeyState;
}

/** A created or rolled key: the whole `key` this once. */
export interface ApiKeyCreated {
  apiKey: ApiKeyView;
  key: string;
}
