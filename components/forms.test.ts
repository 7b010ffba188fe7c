import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";

import { describe, expect, it } from "vitest";

// One form style (docs/architecture.md, "Forms"): react-hook-form with the zod schema the handler uses.
// In app/, a server component's form (a GET filter, the sign-out button's action) holds no state and is left alone.
// The public pay form (components/pay/) is the one exception: it must stay within a blank page's first-load weight,
// so it is plain state and fetch (docs/architecture.md "Forms").

const root = fileURLToPath(new URL("..", import.meta.url));

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [path] : [];
  });
}

const PUBLIC_PAY = /^components\/pay\//;

const files = [...sources(join(root, "components")), ...sources(join(root, "app"))]
  .map((path) => ({ name: relative(root, path), text: readFileSync(path, "utf8") }))
  .filter((f) => !PUBLIC_PAY.test(f.name));

describe("forms", () => {
  it("finds the forms it checks", () => {
    expect(files.filter((f) => f.name.startsWith("components/") && f.text.includes("<form")).length).toBeGreaterThanOrEqual(8);
  });

  it("never use useActionState", () => {
    expect(files.filter((f) => /\buseActionState\b/.test(f.text)).map((f) => f.name)).toEqual([]);
  });

  it("are react-hook-form forms: every <form in components/, and in app/'s client components, has useForm and handleSubmit", () => {
    const checked = files.filter((f) => f.name.startsWith("components/") || /^\s*["']use client["']/.test(f.text));
    const offenders = checked
      .filter((f) => /<form[\s>]/.test(f.text))
      .filter((f) => !/\buseForm\s*[<(]/.test(f.text) || !/\.handleSubmit\(/.test(f.text))
      .map((f) => f.name);
    expect(offenders).toEqual([]);
  });

  it("hold their fields in a ReadyFieldset, so nothing typed or chosen before hydration is undone", () => {
    const forms = files.filter((f) => /<form[\s>]/.test(f.text) && /\buseForm\s*[<(]/.test(f.text));
    const offenders = forms
      .filter((f) => (f.text.match(/<form[\s>]/g) ?? []).length !== (f.text.match(/<ReadyFieldset[\s>]/g) ?? []).length)
      .map((f) => f.name);
    expect(forms.length).toBeGreaterThanOrEqual(20);
    expect(offenders).toEqual([]);
  });

  it("submit through handleSubmit, not a hand-rolled onSubmit", () => {
    const offenders = files.filter((f) => /onSubmit=\{(?![^}]*handleSubmit)/.test(f.text)).map((f) => f.name);
    expect(offenders).toEqual([]);
  });
});
