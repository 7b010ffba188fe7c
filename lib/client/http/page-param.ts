import { z } from "zod";

/** A 1-based page number from a query string; anything unusable reads as page 1. */
export const pageParamSchema = z.coerce.number().int().min(1).max(100_000).catch(1);

export function pageParam(value: string | string[] | null | undefined): number {
  return pageParamSchema.parse((Array.isArray(value) ? value[0] : value) || 1);
}

/** One page of a list, as every list route answers it and every list query holds it. */
export interface Page<T> {
  items: T[];
  page: number;
  pageSize: number;
  total: number;
}

/** A page of a list whose count stops at a cap (`totalCapped`: more match than `total` says). */
export type CappedPage<T> = Page<T> & { totalCapped: boolean };

export interface PagerLinks {
  /** The page before, or null on the first; a page past a known end goes back to the last page. */
  previous: number | null;
  /** The page after, or null when this is the last. */
  next: number | null;
  /** "Page 3 of 7", "Page 3 of 40+" when the count stopped at its cap, or "Page 3" before the list is read. */
  label: string;
}

/**
 * Where a pager may go from `page`. Past the count's cap the last page is not known, so a full page has a next one;
 * before the list is read (`data` undefined) there is no next page yet.
 */
export function pagerLinks<T>(page: number, data: CappedPage<T> | undefined): PagerLinks {
  const pages = data ? Math.max(1, Math.ceil(data.total / data.pageSize)) : 1;
  const capped = data?.totalCapped ?? false;
  const next = data && (capped ? data.items.length === data.pageSize : page < pages) ? page + 1 : null;
  const previous = page > 1 ? (capped || !data ? page - 1 : Math.min(page - 1, pages)) : null;
  const of = !data ? "" : ` of ${capped ? `${Math.max(pages, page).toLocaleString("en")}+` : pages.toLocaleString("en")}`;
  return { previous, next, label: `Page ${page.toLocaleString("en")}${of}` };
}
