// Security headers built in one place: proxy.ts sends them with a per-request nonce; next.config.js sends the static
// ones. Plain JavaScript (types in security-headers.d.ts) because next.config.js loads it without a compiler.

// Directives every policy shares: same-origin everything, no framing, no plugins, no foreign form or base targets.
const DEFAULT_SRC = "default-src 'self'";
const SHARED = [
  // 'unsafe-inline' for styles only (React `style={…}` attributes, Next.js's inline <style>); scripts never get it.
  "style-src 'self' 'unsafe-inline'",
  // Avatars come from the service's https hosts; no plain http.
  "img-src 'self' data: https:",
  "font-src 'self'",
  "connect-src 'self'",
  // The pay page's proof-of-work runs in a same-origin Web Worker (components/pay/pow.worker.ts); no blob: or data: workers.
  "worker-src 'self'",
  "frame-ancestors 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "object-src 'none'",
];

// A nonce is spliced into a header: only base64 characters may get that far.
const NONCE = /^[A-Za-z0-9+/]{16,}={0,2}$/;

/** 128 random bits, base64: fresh for every document so an injected script cannot guess it. */
export function createNonce() {
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);
  return btoa(String.fromCharCode(...bytes));
}

/** The documents' policy: only scripts carrying this response's nonce (and what they load) run. */
export function contentSecurityPolicy(nonce, { dev }) {
  if (!NONCE.test(nonce)) throw new Error("CSP nonce must be base64 of at least 12 bytes");
  // React's dev build uses eval for server error stacks; production never does.
  const script = `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'${dev ? " 'unsafe-eval'" : ""}`;
  return [DEFAULT_SRC, script, ...SHARED].join("; ");
}

/** For responses that skip the proxy (API answers, static files): no nonce, so no inline script at all. */
export function fallbackContentSecurityPolicy() {
  return [DEFAULT_SRC, "script-src 'self'", ...SHARED].join("; ");
}

/** True when the dashboard's public address is https, the only case where HSTS may be sent. */
export function isHttpsUrl(url) {
  return typeof url === "string" && /^https:\/\//i.test(url.trim());
}

/** The non-CSP headers; HSTS only behind https, or a plain-http install would lock browsers out. */
export function securityHeaders({ https }) {
  /** @type {import('./security-headers').HeaderPair[]} */
  const headers = [
    { key: "X-Content-Type-Options", value: "nosniff" },
    { key: "Referrer-Policy", value: "strict-origin-when-cross-origin" },
    { key: "X-Frame-Options", value: "DENY" },
    { key: "Permissions-Policy", value: "camera=(), microphone=(), geolocation=()" },
  ];
  if (https) headers.push({ key: "Strict-Transport-Security", value: "max-age=63072000; includeSubDomains" });
  return headers;
}
