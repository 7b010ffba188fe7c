import type { RequestListQuery } from "./schemas";

// Zod-free: lib/client/query/options, which every page loads, builds the requests list's URL with it.
/** The query string of a requests filter (the page's URL, GET /api/requests): each part left out at its default. */
export function requestListSearch(p: RequestListQuery, extra: Record<string, string> = {}): string {
  const q = new URLSearchParams();
  if (p.status) q.set("status", p.status);
  if (p.tag) q.set("tag", p.tag);
  if (p.campaign) q.set("campaign", p.campaign);
  if (p.from) q.set("from", p.from);
  if (p.to) q.set("to", p.to);
  if (p.page > 1) q.set("page", String(p.page));
  for (const [k, val] of Object.entries(extra)) q.set(k, val);
  const text = q.toString();
  return text ? `?${text}` : "";
}
