import { NextResponse, type NextRequest } from "next/server";

import { PAGE_HEADER } from "./lib/http/page-header";
import { contentSecurityPolicy, createNonce, isHttpsUrl, securityHeaders } from "./lib/http/security-headers";

// A shortcut only: pages and route handlers check the session and role themselves.
const SESSION_COOKIES = ["authjs.session-token", "__Secure-authjs.session-token"];
// Open without a session: what the old matcher left out besides the API and static files (any path starting "sign-in").
const SIGN_IN = /^\/sign-in/;
// Open to anyone too: the public pay pages and their status links (docs/architecture.md "Pay pages").
const PAY_PAGES = /^\/pay\//;

// A page takes a body only for a server action (the sign-in form, sign-out), which Next.js reads whole,
// chunked or not. A browser sends those small bodies with a Content-Length, so anything else is refused here.
const MAX_PAGE_BODY_BYTES = 64 * 1024;

function oversizedPageBody(request: NextRequest): boolean {
  if (request.method === "GET" || request.method === "HEAD") return false;
  const length = Number(request.headers.get("content-length") ?? Number.NaN);
  return !(Number.isFinite(length) && length <= MAX_PAGE_BODY_BYTES);
}

function toSignIn(request: NextRequest): NextResponse {
  const url = request.nextUrl.clone();
  url.pathname = "/sign-in";
  url.search = `?callbackUrl=${encodeURIComponent(request.nextUrl.pathname + request.nextUrl.search)}`;
  return NextResponse.redirect(url);
}

// Every document gets a fresh nonce: on the request so Next.js puts it on its own scripts, on the response for the browser.
export function proxy(request: NextRequest) {
  const nonce = createNonce();
  const csp = contentSecurityPolicy(nonce, { dev: process.env.NODE_ENV !== "production" });
  const hasSession = SESSION_COOKIES.some((name) => request.cookies.has(name));
  let response: NextResponse;
  if (oversizedPageBody(request)) {
    const message = `A page takes at most ${MAX_PAGE_BODY_BYTES} bytes, sent with a Content-Length; this body was refused unread.`;
    response = NextResponse.json({ status: false, message, code: "payload_too_large", data: {} }, { status: 413 });
  } else if (hasSession || SIGN_IN.test(request.nextUrl.pathname) || PAY_PAGES.test(request.nextUrl.pathname)) {
    const requestHeaders = new Headers(request.headers);
    requestHeaders.set("x-nonce", nonce);
    // The dashboard layout sends an ended session back to sign-in with the page it asked for.
    requestHeaders.set(PAGE_HEADER, request.nextUrl.pathname + request.nextUrl.search);
    requestHeaders.set("Content-Security-Policy", csp);
    response = NextResponse.next({ request: { headers: requestHeaders } });
  } else {
    response = toSignIn(request);
  }
  response.headers.set("Content-Security-Policy", csp);
  // APP_URL is read per request, not at build: HSTS follows the address this install is really served at.
  for (const { key, value } of securityHeaders({ https: isHttpsUrl(process.env.APP_URL) })) response.headers.set(key, value);
  return response;
}

export const config = {
  // Every page, /sign-in included; not the API (which answers 401 itself, with next.config.js's fallback CSP) or static files.
  matcher: ["/((?!api/|_next/|favicon|icon|logo\\.svg|robots\\.txt).*)"],
};
