// @ts-check

// Mirrors lib/http/security-headers.ts (Node cannot import TypeScript here; security-headers.test.ts checks they agree).
// Every response gets these; documents pass proxy.ts, whose nonce CSP replaces this fallback one. No nonce here, so
// no inline script: API answers, static files and anything else the proxy skips can run nothing injected.
const fallbackCsp = [
  "default-src 'self'",
  "script-src 'self'",
  // 'unsafe-inline' for styles only (React `style={…}` attributes, Next.js's inline <style>); scripts never get it.
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: https:",
  "font-src 'self'",
  "connect-src 'self'",
  "frame-ancestors 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "object-src 'none'",
].join("; ");

// HSTS is not here: these headers are fixed at build time, and only proxy.ts knows the APP_URL the server runs with.
const staticHeaders = [
  { key: "X-Content-Type-Options", value: "nosniff" },
  { key: "Referrer-Policy", value: "strict-origin-when-cross-origin" },
  { key: "X-Frame-Options", value: "DENY" },
  { key: "Permissions-Policy", value: "camera=(), microphone=(), geolocation=()" },
];

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
  // forbidden() for pages a role may not open (lib/auth/page-guard.ts).
  // proxyClientMaxBodySize: proxy.ts refuses page bodies over 64 KiB (server actions are far smaller); Next.js
  // copies a body for the proxy up to this size and drains the rest without keeping it (default 10 MB a request).
  experimental: { authInterrupts: true, proxyClientMaxBodySize: "64kb" },
  // Native/wasm packages load from node_modules at run time instead of being bundled.
  serverExternalPackages: ["@electric-sql/pglite", "pg", "pg-boss", "@node-rs/argon2"],
  async headers() {
    return [
      {
        source: "/:path*",
        headers: [{ key: "Content-Security-Policy", value: fallbackCsp }, ...staticHeaders],
      },
    ];
  },
};

export default nextConfig;
