import { describe, expect, it } from "vitest";

import { addressBucket } from "./address-bucket";

// The pay pages' address limits count buckets (docs/decisions.md "Pay pages"): one IPv6 host holds a /64, and a port
// a proxy wrote is not part of the address.
describe("a pay page's address bucket", () => {
  it("counts an IPv6 address by its /64, however the host varies its last 64 bits or writes it", () => {
    const bucket = addressBucket("2001:db8:1:2::1");
    expect(addressBucket("2001:db8:1:2:ffff:eeee:dddd:cccc")).toBe(bucket);
    expect(addressBucket("[2001:0db8:0001:0002::9]:443")).toBe(bucket);
    expect(addressBucket("2001:db8:1:3::1")).not.toBe(bucket);
  });

  it("counts an IPv4 address alone, with or without a port or the IPv4-mapped form", () => {
    expect(addressBucket("203.0.113.9:51234")).toBe("203.0.113.9");
    expect(addressBucket("::ffff:203.0.113.9")).toBe("203.0.113.9");
    expect(addressBucket("203.0.113.10")).not.toBe(addressBucket("203.0.113.9"));
  });

  it("puts callers with no address they can be told by in one bucket", () => {
    expect(addressBucket(null)).toBe("unknown");
    expect(addressBucket("unknown")).toBe("unknown");
  });
});
