import { API_SCOPES, type ApiScope } from "@/lib/client/auth/permissions";
import type { KeyPreset } from "@/lib/client/api-keys/schemas";

// The key form's presets and how a key's scopes read in the list. presetScopes (lib/client/api-keys/schemas.ts) says
// the same, but that module carries zod, which no browser component loads with a page (lib/client/boundaries.test.ts).

export const READ_SCOPES: readonly ApiScope[] = API_SCOPES.filter((s) => s.endsWith(":read"));

export const PRESET_WORDS: Record<KeyPreset, { label: string; hint: string }> = {
  everything: { label: "Everything", hint: "Every scope: reads, and writes that send requests and change payers" },
  read_only: { label: "Read only", hint: "Every :read scope: it can look, never change or send" },
};

/** The scopes a preset stands for, as the handler reads it. */
export function scopesOfPreset(preset: KeyPreset): ApiScope[] {
  return preset === "everything" ? [...API_SCOPES] : [...READ_SCOPES];
}

const same = (a: readonly ApiScope[], b: readonly ApiScope[]) => a.length === b.length && a.every((s) => b.includes(s));

/** "Everything", "Read only", or null when the key holds a hand-picked list. */
export function presetOf(scopes: readonly ApiScope[]): string | null {
  if (same(scopes, API_SCOPES)) return PRESET_WORDS.everything.label;
  if (same(scopes, READ_SCOPES)) return PRESET_WORDS.read_only.label;
  return null;
}
