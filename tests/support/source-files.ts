import { readdirSync } from "node:fs";
import path from "node:path";

import { ROOT } from "./paths";

/** The TypeScript sources (tests left out) under `dir`, relative to the repository root: what the architecture tests read. */
export function sourceFiles(dir: string, out: string[] = []): string[] {
  for (const entry of readdirSync(path.join(ROOT, dir), { withFileTypes: true })) {
    const rel = path.join(dir, entry.name);
    if (entry.isDirectory()) sourceFiles(rel, out);
    else if (/\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name)) out.push(rel);
  }
  return out;
}
