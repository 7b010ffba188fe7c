import { describe, expect, it } from "vitest";

import { pagerLinks, type CappedPage } from "./pager-links";

const pageOf = (items: number, total: number, totalCapped: boolean): CappedPage<number> => ({
  items: Array.from({ length: items }, (_, i) => i),
  page: 1,
  pageSize: 25,
  total,
  totalCapped,
});

describe("pagerLinks", () => {
  it("pages a counted list to its last page and no further", () => {
    expect(pagerLinks(1, pageOf(25, 60, false))).toEqual({ previous: null, next: 2, label: "Page 1 of 3" });
    expect(pagerLinks(2, pageOf(25, 60, false))).toEqual({ previous: 1, next: 3, label: "Page 2 of 3" });
    expect(pagerLinks(3, pageOf(10, 60, false))).toEqual({ previous: 2, next: null, label: "Page 3 of 3" });
    expect(pagerLinks(1, pageOf(0, 0, false))).toEqual({ previous: null, next: null, label: "Page 1 of 1" });
  });

  it("sends a page past a known end back to the last page", () => {
    expect(pagerLinks(9, pageOf(0, 60, false))).toEqual({ previous: 3, next: null, label: "Page 9 of 3" });
  });

  it("pages past a capped count while pages come back full, and stops at the first short one", () => {
    // 1,000 counted, 25 a page: page 40 is the count's last, but a full page 40 means there is more.
    expect(pagerLinks(40, pageOf(25, 1000, true))).toEqual({ previous: 39, next: 41, label: "Page 40 of 40+" });
    expect(pagerLinks(57, pageOf(25, 1000, true))).toEqual({ previous: 56, next: 58, label: "Page 57 of 57+" });
    expect(pagerLinks(58, pageOf(3, 1000, true))).toEqual({ previous: 57, next: null, label: "Page 58 of 58+" });
    expect(pagerLinks(1200, pageOf(25, 100_000, true)).label).toBe("Page 1,200 of 4,000+");
  });

  it("offers only the way back before the list is read", () => {
    expect(pagerLinks(5, undefined)).toEqual({ previous: 4, next: null, label: "Page 5" });
    expect(pagerLinks(1, undefined)).toEqual({ previous: null, next: null, label: "Page 1" });
  });
});
