// The avatar address is webhook data: only plain https URLs may reach an <img src>.
import { describe, expect, it } from "vitest";

import { avatarSrc } from "./avatar-url";

describe("avatarSrc", () => {
  it("accepts https URLs", () => {
    expect(avatarSrc("https://cdn.example.com/a/b.png")).toBe("https://cdn.example.com/a/b.png");
    expect(avatarSrc("HTTPS://CDN.Example.com/x.jpg?size=64")).toBe("https://cdn.example.com/x.jpg?size=64");
    expect(avatarSrc("https://cdn.example.com:8443/x.png")).toBe("https://cdn.example.com:8443/x.png");
  });

  it.each([
    ["nothing", null],
    ["empty", ""],
    ["plain http", "http://cdn.example.com/a.png"],
    ["javascript:", "javascript:alert(1)"],
    ["javascript: dressed as https", "javascript://https://cdn.example.com/%0aalert(1)"],
    ["data:", "data:image/svg+xml;base64,PHN2Zz48L3N2Zz4="],
    ["protocol-relative", "//cdn.example.com/a.png"],
    ["relative", "/avatars/a.png"],
    ["leading space", " https://cdn.example.com/a.png"],
    ["trailing newline", "https://cdn.example.com/a.png\n"],
    ["tab inside the scheme", "ht\ttps://cdn.example.com/a.png"],
    ["newline inside the host", "https://cdn.exa\nmple.com/a.png"],
    ["leading control character", "\u0001https://cdn.example.com/a.png"],
    ["zero-width space", "https://cdn.example.com\u200b/a.png"],
    ["non-breaking space", "\u00a0https://cdn.example.com/a.png"],
    ["user name", "https://user@cdn.example.com/a.png"],
    ["user and password", "https://user:secret@cdn.example.com/a.png"],
    ["password only", "https://:secret@cdn.example.com/a.png"],
    ["backslash host trick", "https:\\\\evil.example/a.png"],
    ["https with no host", "https:///a.png"],
    ["not a URL", "https://exa mple.com"],
    ["too long", `https://cdn.example.com/${"a".repeat(3000)}`],
  ])("refuses %s", (_what, raw) => {
    expect(avatarSrc(raw)).toBeNull();
  });
});
