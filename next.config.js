// Plain JavaScript, typed by JSDoc; the security headers come from the one module proxy.ts also uses.
import { fallbackContentSecurityPolicy, securityHeaders } from "./lib/http/security-headers.js";

/** @type {import('next').NextConfig} */
const nextConfig = {
  // Test suites and benchmarks build into their own folder so they never race the main build.
  distDir: process.env.NEXT_DIST_DIR || ".next",
  // `npm run build:standalone` (deploys): a self-contained server in .next/standalone with the migrations beside it.
  output: process.env.NEXT_OUTPUT === "standalone" ? "standalone" : undefined,
  outputFileTracingIncludes: { "/*": ["./drizzle/**/*"] },
  // The build checks only what it bundles; `npm run typecheck` covers tests, scripts and benches.
  typescript: { tsconfigPath: "tsconfig.build.json" },
  reactStrictMode: true,
  poweredByHeader: false,
  // authInterrupts: forbidden() for pages a role may not open (lib/auth/page-guard.ts).
  // proxyClientMaxBodySize: proxy.ts refuses page bodies over 64 KiB (server actions are far smaller); Next.js
  // copies a body for the proxy up to this size and drains the rest without keeping it (default 10 MB a request).
  experimental: { authInterrupts: true, proxyClientMaxBodySize: "64kb" },
  // Native/wasm packages load from node_modules at run time instead of being bundled.
  serverExternalPackages: ["@electric-sql/pglite", "pg", "pg-boss", "@node-rs/argon2"],
  // Every response gets these; documents pass proxy.ts, whose nonce CSP replaces this one (no nonce here, so no
  // inline script: API answers and static files can run nothing injected). HSTS is left to proxy.ts, which knows
  // the APP_URL the server runs with; these headers are fixed at build time.
  async headers() {
    return [
      {
        source: "/:path*",
        headers: [{ key: "Content-Security-Policy", value: fallbackContentSecurityPolicy() }, ...securityHeaders({ https: false })],
      },
    ];
  },
};

export default nextConfig;
