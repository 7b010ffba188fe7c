import { describe, expect, it } from "vitest";

import { escapeLike, likeContains } from "./like";

describe("escapeLike", () => {
  it("escapes the LIKE wildcards and the escape character itself", () => {
    expect(escapeLike("50%_off\\now")).toBe("50\\%\\_off\\\\now");
  });

  it("leaves other text alone", () => {
    expect(escapeLike("ada.obi-1 [x]*")).toBe("ada.obi-1 [x]*");
  });
});

describe("likeContains", () => {
  it("wraps the escaped text in %…%", () => {
    expect(likeContains("a_b")).toBe("%a\\_b%");
    expect(likeContains("")).toBe("%%");
  });
});
