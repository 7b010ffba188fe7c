// @ts-check

const isProd = process.env.NODE_ENV === "production";

// Same-origin everything: no third-party script, font or frame is ever needed.
const csp = [
  "default-src 'self'",
  `script-src 'self' 'unsafe-inline'${isProd ? "" : " 'unsafe-eval'"}`,
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: http: https:",
  "font-src 'self'",
  "connect-src 'self'",
  "frame-ancestors 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "object-src 'none'",
].join("; ");

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
  experimental: { authInterrupts: true },
  // Native/wasm packages load from node_modules at run time instead of being bundled.
  serverExternalPackages: ["@electric-sql/pglite", "pg", "@node-rs/argon2"],
  async headers() {
    return [
      {
        source: "/:path*",
        headers: [
          { key: "Content-Security-Policy", value: csp },
          { key: "X-Content-Type-Options", value: "nosniff" },
          { key: "Referrer-Policy", value: "strict-origin-when-cross-origin" },
          { key: "X-Frame-Options", value: "DENY" },
          { key: "Permissions-Policy", value: "camera=(), microphone=(), geolocation=()" },
        ],
      },
    ];
  },
};

export default nextConfig;
