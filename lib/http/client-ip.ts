/**
 * The caller's address: the last X-Forwarded-For hop (added by our own proxy or by Next.js itself),
 * which a client cannot forge the way it can the first one.
 */
export function clientIp(headers: Headers): string {
  const forwarded = headers.get("x-forwarded-for");
  const last = forwarded?.split(",").map((s) => s.trim()).filter(Boolean).at(-1);
  return last ?? headers.get("x-real-ip") ?? "unknown";
}
