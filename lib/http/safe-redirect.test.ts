import { describe, expect, it } from "vitest";

import { safeRedirectPath } from "./safe-redirect";

const APP = "https://dash.example.com";

describe("safeRedirectPath", () => {
  it.each([
    ["/", "/"],
    ["/requests?status=pending&page=2", "/requests?status=pending&page=2"],
    ["/payments/abc#top", "/payments/abc#top"],
    ["/a/../audit", "/audit"],
  ])("keeps the dashboard path %s", (input, expected) => {
    expect(safeRedirectPath(input, APP)).toBe(expected);
  });

  it.each([
    // What the review reproduced: a backslash, a tab and CR LF after the first slash.
    "/\\evil.example",
    "/\t/evil.example",
    "/\r\n/evil.example",
    "//evil.example",
    "///evil.example",
    "/\\/evil.example",
    "https://evil.example/",
    "http://dash.example.com/", // absolute, even to ourselves: only paths are taken
    "javascript:alert(1)",
    "evil.example",
    "",
    " /requests",
    "/a/../..//evil.example",
    "/\u0000/evil.example",
    "/\u0085/evil.example",
    `/${"a".repeat(3000)}`,
  ])("sends %j home", (input) => {
    expect(safeRedirectPath(input, APP)).toBe("/");
  });

  it("refuses anything that is not a string", () => {
    expect(safeRedirectPath(["/requests"], APP)).toBe("/");
    expect(safeRedirectPath(undefined, APP)).toBe("/");
    expect(safeRedirectPath(42, APP)).toBe("/");
  });
});
