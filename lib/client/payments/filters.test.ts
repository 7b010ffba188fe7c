import { describe, expect, it } from "vitest";

import { paymentFilterSearch } from "./filter-search";
import { paymentFilterFromSearch } from "./filters";

describe("payment filters", () => {
  const from = (q: Record<string, string>) => paymentFilterFromSearch((k) => q[k]);

  it("reads what the URL says and drops what does not fit", () => {
    expect(from({ verified: "verified", tag: "@ada.obi", from: "2026-11-01", to: "2026-11-30", page: "2" })).toEqual({
      verified: "verified",
      tag: "ada.obi",
      from: "2026-11-01",
      to: "2026-11-30",
      page: 2,
      q: undefined,
    });
    expect(from({ verified: "maybe", from: "2024-02-30", to: "yesterday", page: "-3" })).toEqual({
      verified: undefined,
      from: undefined,
      to: undefined,
      page: 1,
      q: undefined,
      tag: undefined,
    });
  });

  it("writes the same filter back as search params", () => {
    const f = from({ verified: "failed", q: "Invoice 12", page: "3" });
    expect(paymentFilterSearch(f)).toBe("?verified=failed&q=Invoice+12&page=3");
    expect(paymentFilterSearch(f, { format: "csv" })).toBe("?verified=failed&q=Invoice+12&page=3&format=csv");
  });
});
