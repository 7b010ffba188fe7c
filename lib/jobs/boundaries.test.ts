// lib/jobs is infrastructure (docs/architecture.md, "Jobs"): it imports no domain, so a job's queue, policy
// and handler live in its domain's `*.job.ts`, and lib/server/workers.ts is the one list of them.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";

import { describe, expect, it } from "vitest";

const ROOT = path.resolve(__dirname, "../..");
/** What the engine may use: the database handle, safe logging and small utilities. */
const ALLOWED = /^@\/lib\/(db|log|util)\//;

function importsOf(file: string): string[] {
  return [...readFileSync(file, "utf8").matchAll(/^import[^;]*?from "([^"]+)";/gms)].map((m) => m[1] ?? "");
}

function jobFiles(dir: string, out: string[] = []): string[] {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) jobFiles(full, out);
    else if (entry.name.endsWith(".job.ts")) out.push(full);
  }
  return out;
}

describe("job boundaries", () => {
  it("lib/jobs imports no domain", () => {
    const dir = path.join(ROOT, "lib", "jobs");
    const files = readdirSync(dir).filter((f) => f.endsWith(".ts") && !f.endsWith(".test.ts"));
    expect(files.length).toBeGreaterThanOrEqual(4);
    const offending = files.flatMap((f) =>
      importsOf(path.join(dir, f))
        .filter((i) => i.startsWith("@/") && !ALLOWED.test(i))
        .map((i) => `${f} → ${i}`),
    );
    expect(offending).toEqual([]);
  });

  it("every *.job.ts is registered in lib/server/workers.ts, and nothing else is", () => {
    const files = jobFiles(path.join(ROOT, "lib"));
    expect(files.length).toBeGreaterThanOrEqual(5);
    const registry = readFileSync(path.join(ROOT, "lib", "server", "workers.ts"), "utf8");
    const registered = importsOf(path.join(ROOT, "lib", "server", "workers.ts")).filter((i) => i.endsWith(".job"));
    const expected = files.map((f) => `@/${path.relative(ROOT, f).replace(/\.ts$/, "")}`).sort();
    expect(registered.sort()).toEqual(expected);
    expect(registry).toMatch(/export const JOBS/);
  });
});
