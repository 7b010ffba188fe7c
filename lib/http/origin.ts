/** CSRF: a mutating request must come from a page of this dashboard (docs/architecture.md). */
export function isSameOrigin(request: Request, appUrl: string): boolean {
  const origin = request.headers.get("origin");
  if (!origin || origin === "null") return false;
  if (origin === new URL(appUrl).origin) return true;
  try {
    return new URL(origin).host === request.headers.get("host");
  } catch {
    return false;
  }
}
