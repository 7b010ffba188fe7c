/**
 * The one check for every redirect target taken from input (`callbackUrl` and the like): a path on
 * this dashboard, or "/". Browsers read `/\host`, `/<tab>/host` and `//host` as another site, so a
 * backslash, a control character or a second leading slash (before or after resolving dot
 * segments) sends the person home instead.
 */
export function safeRedirectPath(value: unknown, appUrl: string): string {
  if (typeof value !== "string" || value.length === 0 || value.length > 2048) return "/";
  if (!value.startsWith("/") || value.startsWith("//")) return "/";
  if (value.includes("\\") || /[\u0000-\u001f\u007f-\u009f]/.test(value)) return "/";
  let origin: string;
  let resolved: URL;
  try {
    origin = new URL(appUrl).origin;
    resolved = new URL(value, origin);
  } catch {
    return "/";
  }
  if (resolved.origin !== origin) return "/";
  const path = `${resolved.pathname}${resolved.search}${resolved.hash}`;
  return path.startsWith("/") && !path.startsWith("//") ? path : "/";
}
