import type { PaymentFilter } from "./filters";

// The payments filter as a query string; zod-free, so the query options every page loads carry no zod (bench 4).
export function paymentFilterSearch(f: PaymentFilter, extra: Record<string, string> = {}): string {
  const q = new URLSearchParams();
  if (f.verified) q.set("verified", f.verified);
  if (f.q) q.set("q", f.q);
  if (f.tag) q.set("tag", f.tag);
  if (f.from) q.set("from", f.from);
  if (f.to) q.set("to", f.to);
  if (f.page > 1) q.set("page", String(f.page));
  for (const [k, val] of Object.entries(extra)) q.set(k, val);
  const text = q.toString();
  return text ? `?${text}` : "";
}
