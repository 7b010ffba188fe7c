// lib/client holds the modules the browser runs (docs/architecture.md, "Browser-safe modules"): none of them may
// import "server-only" or a server module, and the browser's components import from lib/ nothing else.
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";

import { describe, expect, it } from "vitest";

import { ROOT } from "@/tests/support/paths";
import { sourceFiles } from "@/tests/support/source-files";

const sources = sourceFiles;

/** What a file imports at run time: `import type` and `export type` are erased, so they are left out. */
function runtimeImports(text: string): string[] {
  const specs: string[] = [];
  for (const m of text.matchAll(/^\s*(?:import|export)\s+(type\s+)?(?:[^"';]*?\s+from\s+)?["']([^"']+)["']/gm)) {
    if (!m[1]) specs.push(m[2] ?? "");
  }
  return specs;
}

// Packages that only run on the server (a database, the job queue, the password hash, next-auth's server side).
const SERVER_PACKAGES = /^(server-only|pg|pg-boss|drizzle-orm|@electric-sql\/pglite|@node-rs\/argon2|next-auth|otplib|qrcode|node:.*|fs|path|crypto)(\/|$)/;

/** Why an import is not browser-safe, or null when it is. */
function serverImport(spec: string): string | null {
  if (SERVER_PACKAGES.test(spec)) return `the server package ${spec}`;
  if (spec.startsWith("@/lib/") && !spec.startsWith("@/lib/client/")) return `the server module ${spec}`;
  if (spec.startsWith("@/") && !spec.startsWith("@/lib/client/")) return `${spec}, outside lib/client`;
  return null;
}

describe("lib/client", () => {
  it("imports neither server-only nor any server module (types excepted: they are erased)", () => {
    const found: string[] = [];
    for (const file of sources("lib/client")) {
      const text = readFileSync(path.join(ROOT, file), "utf8");
      for (const spec of runtimeImports(text)) {
        const why = serverImport(spec);
        if (why) found.push(`${file} imports ${why}`);
        // A relative import must stay inside lib/client too.
        if (spec.startsWith(".") && !path.resolve(ROOT, path.dirname(file), spec).startsWith(path.join(ROOT, "lib", "client"))) {
          found.push(`${file} imports ${spec}, outside lib/client`);
        }
      }
    }
    expect(found).toEqual([]);
  });

  it("is what the browser's components import from lib/", () => {
    const found: string[] = [];
    for (const file of [...sources("components"), ...sources("app")]) {
      const text = readFileSync(path.join(ROOT, file), "utf8");
      if (!/^\s*["']use client["']/.test(text)) continue;
      for (const spec of runtimeImports(text)) if (spec.startsWith("@/lib/") && !spec.startsWith("@/lib/client/")) found.push(`${file} imports ${spec}`);
    }
    expect(found).toEqual([]);
  });

  it("loads no zod with a page: a browser component reaches zod only through a form's lazy resolver (bench 4)", () => {
    const found: string[] = [];
    for (const file of [...sources("components"), ...sources("app")]) {
      if (!/^\s*["']use client["']/.test(readFileSync(path.join(ROOT, file), "utf8"))) continue;
      const trail = zodTrail(path.join(ROOT, file));
      if (trail) found.push(trail.join(" → "));
    }
    expect(found).toEqual([]);
  });

  it("finds zod reached through another module (the check itself)", () => {
    expect(zodTrail(path.join(ROOT, "lib/client/http/page-param.ts"))).toEqual(["lib/client/http/page-param.ts", "zod"]);
    expect(zodTrail(path.join(ROOT, "lib/client/http/pager-links.ts"))).toBeNull();
  });

  it("finds a server import when there is one (the check itself)", () => {
    expect(runtimeImports('import "server-only";\nimport { getDb } from "@/lib/db";\nimport type { Db } from "@/lib/db/client";')).toEqual([
      "server-only",
      "@/lib/db",
    ]);
    expect(serverImport("server-only")).not.toBeNull();
    expect(serverImport("@/lib/db")).not.toBeNull();
    expect(serverImport("@/lib/client/money")).toBeNull();
    expect(serverImport("@tanstack/react-query")).toBeNull();
  });
});

/** The file an `@/` or relative import names, or null for a package. */
function resolveImport(from: string, spec: string): string | null {
  const base = spec.startsWith("@/") ? path.join(ROOT, spec.slice(2)) : spec.startsWith(".") ? path.resolve(path.dirname(from), spec) : null;
  if (!base) return null;
  return [`${base}.ts`, `${base}.tsx`, path.join(base, "index.ts"), path.join(base, "index.tsx")].find((f) => existsSync(f)) ?? null;
}

/**
 * The static imports from `file` that end at zod, or null. A "use server" module is a boundary (the browser gets a
 * reference to its actions, not its code); `import()` is not followed, as the lazy resolver loads zod that way.
 */
function zodTrail(file: string, seen = new Set<string>()): string[] | null {
  if (seen.has(file)) return null;
  seen.add(file);
  const text = readFileSync(file, "utf8");
  if (/^\s*["']use server["']/.test(text)) return null;
  const here = path.relative(ROOT, file);
  for (const spec of runtimeImports(text)) {
    if (/^(zod|@hookform\/resolvers)(\/|$)/.test(spec)) return [here, spec];
    const next = resolveImport(file, spec);
    const trail = next ? zodTrail(next, seen) : null;
    if (trail) return [here, ...trail];
  }
  return null;
}
