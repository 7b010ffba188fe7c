import { describe, expect, it } from "vitest";

import { resolveClientIp } from "./client-ip";

const h = (init: Record<string, string>) => new Headers(init);

describe("resolveClientIp", () => {
  it("with TRUST_PROXY=0 takes the socket's address and ignores forwarding headers the client set", () => {
    for (const forged of ["203.0.113.7", "1.1.1.1, 2.2.2.2", ""]) {
      expect(resolveClientIp(h({ "x-fundboard-peer": "198.51.100.20", "x-forwarded-for": forged, "x-real-ip": "9.9.9.9" }), 0, true)).toBe("198.51.100.20");
    }
  });

  it("with TRUST_PROXY=0 and no stamp in this process, every caller is one 'unknown' address, never a header's", () => {
    expect(resolveClientIp(h({ "x-fundboard-peer": "203.0.113.7", "x-forwarded-for": "203.0.113.8" }), 0, false)).toBe("unknown");
  });

  it("gives an IPv4 caller on a dual-stack socket as IPv4, not IPv4-mapped IPv6", () => {
    expect(resolveClientIp(new Headers({ "x-fundboard-peer": "::ffff:203.0.113.9" }), 0, true)).toBe("203.0.113.9");
    expect(resolveClientIp(new Headers({ "x-forwarded-for": "::FFFF:198.51.100.7", "x-fundboard-peer": "10.0.0.1" }), 1, true)).toBe("198.51.100.7");
    expect(resolveClientIp(new Headers({ "x-fundboard-peer": "2001:db8::1" }), 0, true)).toBe("2001:db8::1");
  });

  it("with one trusted proxy takes the address that proxy appended, not what the client prepended", () => {
    // client 203.0.113.5 sent "X-Forwarded-For: 6.6.6.6"; the load balancer (10.0.0.2) appended the client's address.
    const headers = h({ "x-fundboard-peer": "10.0.0.2", "x-forwarded-for": "6.6.6.6, 203.0.113.5" });
    expect(resolveClientIp(headers, 1, true)).toBe("203.0.113.5");
    expect(resolveClientIp(h({ "x-forwarded-for": "6.6.6.6, 203.0.113.5" }), 1, false)).toBe("203.0.113.5");
  });

  it("with two trusted proxies skips both hops", () => {
    const headers = h({ "x-fundboard-peer": "10.0.0.3", "x-forwarded-for": "6.6.6.6, 203.0.113.5, 10.0.0.2" });
    expect(resolveClientIp(headers, 2, true)).toBe("203.0.113.5");
  });

  it("with fewer forwarded entries than trusted proxies falls back to the leftmost one there is", () => {
    expect(resolveClientIp(h({ "x-fundboard-peer": "10.0.0.3" }), 2, true)).toBe("10.0.0.3");
    expect(resolveClientIp(h({}), 1, false)).toBe("unknown");
  });
});
