import { describe, expect, it } from "vitest";
import { pageParam } from "./page-param";

describe("pageParam", () => {
  it("reads a usable page and turns anything else into page 1", () => {
    expect(pageParam("3")).toBe(3);
    expect(pageParam(["4", "9"])).toBe(4);
    for (const bad of ["0", "-2", "2.5", "x", "", null, undefined, "100001"]) expect(pageParam(bad)).toBe(1);
  });
});
