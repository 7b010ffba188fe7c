import { API_SCOPES, type ApiScope } from "@/lib/client/auth/permissions";

// The API keys' scope presets (docs/architecture.md "The API"), without zod, so the keys page's form reads them too.

export const KEY_PRESETS = ["everything", "read_only"] as const;
export type KeyPreset = (typeof KEY_PRESETS)[number];

export const READ_SCOPES: readonly ApiScope[] = API_SCOPES.filter((s) => s.endsWith(":read"));

/** The scopes a preset stands for: every scope, or every `:read` one. */
export function presetScopes(preset: KeyPreset): ApiScope[] {
  return preset === "everything" ? [...API_SCOPES] : [...READ_SCOPES];
}
