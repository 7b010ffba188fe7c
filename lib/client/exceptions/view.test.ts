import { describe, expect, it } from "vitest";

import { exceptionListFromSearch, exceptionListSearch } from "./view";

const read = (params: Record<string, string>) => exceptionListFromSearch((name) => params[name]);

describe("the inbox's day filter in the URL", () => {
  it("keeps a real day and round-trips it", () => {
    const query = read({ day: "2026-11-24" });
    expect(query).toEqual({ status: "open", kind: undefined, day: "2026-11-24", page: 1 });
    expect(exceptionListSearch(query)).toBe("?day=2026-11-24");
  });

  it("reads a day that is no calendar day, or out of 2000–2100, as no filter", () => {
    for (const day of ["2026-02-30", "9999-12-31", "0001-01-01", "1999-12-31", "2026-1-1", "yesterday", "2026-11-24\u0000"])
      expect(read({ day }).day).toBeUndefined();
  });
});
