// The types of security-headers.js, the one source of the security headers (docs/decisions.md, "The security headers have one source").

export interface HeaderPair {
  key: string;
  value: string;
}

/** 128 random bits, base64: fresh for every document so an injected script cannot guess it. */
export function createNonce(): string;
/** The documents' policy: only scripts carrying this response's nonce (and what they load) run. */
export function contentSecurityPolicy(nonce: string, options: { dev: boolean }): string;
/** For responses that skip the proxy (API answers, static files): no nonce, so no inline script at all. */
export function fallbackContentSecurityPolicy(): string;
/** True when the dashboard's public address is https, the only case where HSTS may be sent. */
export function isHttpsUrl(url: string | undefined): boolean;
/** The non-CSP headers; HSTS only behind https, or a plain-http install would lock browsers out. */
export function securityHeaders(options: { https: boolean }): HeaderPair[];
