import { NextResponse, type NextRequest } from "next/server";

// A shortcut only: pages and route handlers check the session and role themselves.
const SESSION_COOKIES = ["authjs.session-token", "__Secure-authjs.session-token"];

export function proxy(request: NextRequest) {
  const hasSession = SESSION_COOKIES.some((name) => request.cookies.has(name));
  if (hasSession) return NextResponse.next();
  const url = request.nextUrl.clone();
  url.pathname = "/sign-in";
  url.search = `?callbackUrl=${encodeURIComponent(request.nextUrl.pathname + request.nextUrl.search)}`;
  return NextResponse.redirect(url);
}

export const config = {
  // Pages only: not the API (which answers 401 itself), the sign-in page, or static files.
  matcher: ["/((?!api/|sign-in|_next/|favicon|icon|logo\\.svg|robots\\.txt).*)"],
};
