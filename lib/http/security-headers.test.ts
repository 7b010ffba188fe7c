// The CSP must stop injected scripts: a per-response nonce with 'strict-dynamic', never 'unsafe-inline' for scripts.
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";

import type { NextConfig } from "next";
import { describe, expect, it } from "vitest";

import { ROOT } from "@/tests/support/paths";
import { sourceFiles } from "@/tests/support/source-files";

import { contentSecurityPolicy, createNonce, fallbackContentSecurityPolicy, isHttpsUrl, securityHeaders, type HeaderPair } from "./security-headers";

function directives(csp: string): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const part of csp.split(";")) {
    const [name, ...values] = part.trim().split(/\s+/);
    if (name) out.set(name.toLowerCase(), values);
  }
  return out;
}

function scriptSrc(csp: string): string[] {
  const d = directives(csp);
  return d.get("script-src") ?? d.get("default-src") ?? [];
}

/** What every policy must hold, nonce or not. */
function expectStrict(csp: string): void {
  const d = directives(csp);
  expect(scriptSrc(csp)).not.toContain("'unsafe-inline'");
  expect(d.get("frame-ancestors")).toEqual(["'none'"]);
  expect(d.get("default-src")).toEqual(["'self'"]);
  expect(d.get("base-uri")).toEqual(["'self'"]);
  expect(d.get("form-action")).toEqual(["'self'"]);
  expect(d.get("object-src")).toEqual(["'none'"]);
  expect(d.get("connect-src")).toEqual(["'self'"]);
  expect(d.get("worker-src")).toEqual(["'self'"]);
  expect(d.get("font-src")).toEqual(["'self'"]);
  expect(d.get("img-src")).toEqual(["'self'", "data:", "https:"]);
}

describe("contentSecurityPolicy", () => {
  const nonce = createNonce();

  it("lets only scripts with this nonce run, and what they load", () => {
    const csp = contentSecurityPolicy(nonce, { dev: false });
    expect(scriptSrc(csp)).toEqual(["'self'", `'nonce-${nonce}'`, "'strict-dynamic'"]);
    expectStrict(csp);
    expect(csp).not.toMatch(/unsafe-eval/);
    expect(csp).not.toMatch(/\bhttp:/);
  });

  it("adds 'unsafe-eval' in development only", () => {
    expect(scriptSrc(contentSecurityPolicy(nonce, { dev: true }))).toEqual(["'self'", `'nonce-${nonce}'`, "'strict-dynamic'", "'unsafe-eval'"]);
    expectStrict(contentSecurityPolicy(nonce, { dev: true }));
  });

  it("refuses a nonce that could break out of the header", () => {
    for (const bad of ["", "short", "abc'; script-src *", "a".repeat(20) + "\r\nX-Evil: 1", "a".repeat(20) + " 'unsafe-inline'"]) {
      expect(() => contentSecurityPolicy(bad, { dev: false })).toThrow();
    }
  });
});

describe("createNonce", () => {
  it("is 128 random bits in base64, different every time", () => {
    const nonces = new Set(Array.from({ length: 200 }, () => createNonce()));
    expect(nonces.size).toBe(200);
    for (const n of nonces) {
      expect(n).toMatch(/^[A-Za-z0-9+/]{22}==$/);
      expect(Buffer.from(n, "base64")).toHaveLength(16);
    }
  });
});

describe("fallbackContentSecurityPolicy", () => {
  it("allows no inline script at all, since it carries no nonce", () => {
    const csp = fallbackContentSecurityPolicy();
    expect(scriptSrc(csp)).toEqual(["'self'"]);
    expect(csp).not.toMatch(/nonce-|unsafe-eval/);
    expectStrict(csp);
  });
});

describe("securityHeaders", () => {
  const keys = (headers: HeaderPair[]) => headers.map((h) => h.key);

  it("sends HSTS only for an https install", () => {
    expect(securityHeaders({ https: true })).toContainEqual({ key: "Strict-Transport-Security", value: "max-age=63072000; includeSubDomains" });
    expect(keys(securityHeaders({ https: false }))).not.toContain("Strict-Transport-Security");
  });

  it("always sends nosniff, a strict Referrer-Policy, DENY framing and a Permissions-Policy", () => {
    for (const https of [true, false]) {
      const headers = securityHeaders({ https });
      expect(headers).toContainEqual({ key: "X-Content-Type-Options", value: "nosniff" });
      expect(headers).toContainEqual({ key: "Referrer-Policy", value: "strict-origin-when-cross-origin" });
      expect(headers).toContainEqual({ key: "X-Frame-Options", value: "DENY" });
      expect(keys(headers)).toContain("Permissions-Policy");
    }
  });

  it("reads https from APP_URL", () => {
    expect(isHttpsUrl("https://dash.example.com")).toBe(true);
    expect(isHttpsUrl("HTTPS://dash.example.com")).toBe(true);
    expect(isHttpsUrl("http://localhost:3000")).toBe(false);
    expect(isHttpsUrl("")).toBe(false);
    expect(isHttpsUrl(undefined)).toBe(false);
  });
});

describe("next.config.js", () => {
  it("sends the strict fallback CSP and the static headers on every path, and no HSTS", async () => {
    // next.config.js is plain JavaScript (no declaration file): its module is typed here as Next.js types it.
    const { default: config } = (await import(new URL("../../next.config.js", import.meta.url).href)) as { default: NextConfig };
    const rules = (await config.headers?.()) ?? [];
    const all = rules.find((r) => r.source === "/:path*");
    expect(all, "a rule for every path").toBeDefined();
    const headers = all?.headers ?? [];
    expect(headers).toContainEqual({ key: "Content-Security-Policy", value: fallbackContentSecurityPolicy() });
    expect(headers.filter((h) => h.key !== "Content-Security-Policy")).toEqual(securityHeaders({ https: false }));
  });

  it("is JavaScript typed by JSDoc, and the CSP has one source: only security-headers.js writes a directive", () => {
    const root = ROOT;
    expect(existsSync(path.join(root, "next.config.js"))).toBe(true);
    expect(existsSync(path.join(root, "next.config.ts"))).toBe(false);
    expect(readFileSync(path.join(root, "next.config.js"), "utf8")).toContain("@type {import('next').NextConfig}");
    const files = ["next.config.js", "proxy.ts", "lib/http/security-headers.js", ...["app", "lib", "components"].flatMap((dir) => sourceFiles(dir))];
    const writers = files.filter((file) => /script-src|frame-ancestors|X-Frame-Options/.test(readFileSync(path.join(root, file), "utf8")));
    expect(writers).toEqual(["lib/http/security-headers.js"]);
  });
});
