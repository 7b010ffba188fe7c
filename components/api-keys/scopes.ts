import { API_SCOPES, type ApiScope } from "@/lib/client/auth/permissions";
import { READ_SCOPES, type KeyPreset } from "@/lib/client/api-keys/presets";

// The key form's preset words and how a key's scopes read in the list (the presets themselves: lib/client/api-keys/presets.ts).

export const PRESET_WORDS: Record<KeyPreset, { label: string; hint: string }> = {
  everything: { label: "Everything", hint: "Every scope: reads, and writes that send requests, change payers and point webhooks anywhere" },
  read_only: { label: "Read only", hint: "Every :read scope: it can look, never change or send" },
};

const same = (a: readonly ApiScope[], b: readonly ApiScope[]) => a.length === b.length && a.every((s) => b.includes(s));

/** "Everything", "Read only", or null when the key holds a hand-picked list. */
export function presetOf(scopes: readonly ApiScope[]): string | null {
  if (same(scopes, API_SCOPES)) return PRESET_WORDS.everything.label;
  if (same(scopes, READ_SCOPES)) return PRESET_WORDS.read_only.label;
  return null;
}
