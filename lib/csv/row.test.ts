import { describe, expect, it } from "vitest";

import { csvField, csvRow } from "./row";

describe("csvField", () => {
  it("quotes fields with commas, quotes and line breaks", () => {
    expect(csvField("plain")).toBe("plain");
    expect(csvField('a,"b"')).toBe('"a,""b"""');
    expect(csvField("a\nb")).toBe('"a\nb"');
    expect(csvField(null)).toBe("");
  });

  it("defuses cells a spreadsheet would run as formulas", () => {
    for (const start of ["=", "+", "-", "@", "\t", "\r"]) expect(csvField(`${start}A1`).replace(/^"/, "")).toMatch(/^'/);
    // A negative amount is a number an accounting import must read as one; "-1+2" is still a formula.
    expect(csvField("-15.00")).toBe("-15.00");
    expect(csvField("-1+2")).toBe("'-1+2");
    expect(csvField("=1+1")).toBe("'=1+1");
    expect(csvField('=A1,"x"')).toBe(`"'=A1,""x"""`);
  });
});

describe("csvRow", () => {
  it("joins fields with commas and ends with CRLF", () => {
    expect(csvRow(["a", "b,c", null])).toBe('a,"b,c",\r\n');
  });
});
