import { describe, expect, it } from "vitest";

import { qrSvg } from "./qr-svg";
import { totpUri } from "./totp";

describe("qrSvg", () => {
  it("renders an SVG document", async () => {
    const svg = await qrSvg(totpUri("GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ", "ada@fund.test"));
    expect(svg.trimStart()).toMatch(/^<(svg|\?xml)/);
    expect(svg).toContain("<svg");
    expect(svg).toContain("</svg>");
    expect(svg).toContain("<path");
  });

  it("differs for different text", async () => {
    expect(await qrSvg("otpauth://totp/a")).not.toBe(await qrSvg("otpauth://totp/b"));
  });
});
