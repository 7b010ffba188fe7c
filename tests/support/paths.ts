// Where the repository is, for the helpers that start its servers and scripts.
import path from "node:path";

/** The repository root (this file is tests/support/paths.ts). */
export const ROOT = path.resolve(import.meta.dirname, "..", "..");

/** A tool installed in node_modules/.bin. */
export function bin(name: string): string {
  return path.join(ROOT, "node_modules", ".bin", name);
}
