import { PAYER_FILTERS, PAYER_SORTS, type PayerFilter, type PayerSort } from "./view";

// Zod-free: the payers page and its query build and read the list's URL with these (search and paging in the URL).

export interface PayerListQuery {
  q?: string;
  filter?: PayerFilter;
  sort: PayerSort;
  page: number;
}

const one = (v: string | string[] | null | undefined): string | undefined => (Array.isArray(v) ? v[0] : (v ?? undefined));

/** Reads a payers list query from URL parameters; anything unusable reads as its default. */
export function payerListFromSearch(get: (name: string) => string | string[] | null | undefined): PayerListQuery {
  const q = one(get("q"))?.trim().replace(/^@/, "").slice(0, 64);
  const filter = one(get("filter"));
  const sort = one(get("sort"));
  const page = Number(one(get("page")) ?? "1");
  return {
    q: q ? q : undefined,
    filter: (PAYER_FILTERS as readonly string[]).includes(filter ?? "") ? (filter as PayerFilter) : undefined,
    sort: (PAYER_SORTS as readonly string[]).includes(sort ?? "") ? (sort as PayerSort) : "recent",
    page: Number.isInteger(page) && page >= 1 && page <= 100_000 ? page : 1,
  };
}

/** The query string of a payers list (the page's URL, GET /api/payers): each part left out at its default. */
export function payerListSearch(p: PayerListQuery, extra: Record<string, string> = {}): string {
  const s = new URLSearchParams();
  if (p.q) s.set("q", p.q);
  if (p.filter) s.set("filter", p.filter);
  if (p.sort !== "recent") s.set("sort", p.sort);
  if (p.page > 1) s.set("page", String(p.page));
  for (const [k, v] of Object.entries(extra)) s.set(k, v);
  const text = s.toString();
  return text ? `?${text}` : "";
}
