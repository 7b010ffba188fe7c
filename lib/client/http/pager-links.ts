// Kept apart from page-param.ts, which loads zod: the lists that page import this on first paint (bench 4).
import type { Page } from "./page-param";

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
