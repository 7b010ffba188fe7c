// The address guard's rules (docs/decisions.md "Outgoing webhooks: signing and the address guard (issue 40)").
import { describe, expect, it } from "vitest";

import { addressAllowed, classifyAddress, type AddressMode } from "./address-policy";

const LIVE: AddressMode = { sandbox: false, allowPrivate: false };
const LIVE_PRIVATE: AddressMode = { sandbox: false, allowPrivate: true };
const SANDBOX: AddressMode = { sandbox: true, allowPrivate: false };

describe("classifyAddress", () => {
  it.each([
    ["8.8.8.8", "public"],
    ["2606:4700:4700::1111", "public"],
    ["127.0.0.1", "loopback"],
    ["127.45.6.7", "loopback"],
    ["::1", "loopback"],
    ["::ffff:127.0.0.1", "loopback"],
    ["::ffff:7f00:1", "loopback"],
    ["10.0.0.1", "private"],
    ["172.16.5.4", "private"],
    ["172.31.255.255", "private"],
    ["192.168.1.1", "private"],
    ["fc00::1", "private"],
    ["fd12:3456::1", "private"],
    ["::ffff:10.1.2.3", "private"],
    ["64:ff9b::a00:1", "private"],
    ["100.64.0.1", "cgnat"],
    ["100.127.255.254", "cgnat"],
    ["224.0.0.1", "multicast"],
    ["ff02::1", "multicast"],
    ["255.255.255.255", "broadcast"],
    ["0.0.0.0", "unspecified"],
    ["::", "unspecified"],
    ["169.254.1.1", "link-local"],
    ["fe80::1", "link-local"],
    ["fe80::1%eth0", "link-local"],
    ["169.254.169.254", "metadata"],
    ["::ffff:169.254.169.254", "metadata"],
    ["fd00:ec2::254", "metadata"],
    ["100.100.100.200", "metadata"],
    ["192.0.2.1", "reserved"],
    ["240.0.0.1", "reserved"],
    ["2001:db8::1", "reserved"],
    ["::7f00:1", "reserved"],
    ["2002:7f00:1::", "reserved"],
    ["example.com", "invalid"],
    ["", "invalid"],
  ])("%s is %s", (ip, kind) => {
    expect(classifyAddress(ip)).toBe(kind);
  });
});

describe("addressAllowed", () => {
  it("allows a public address in every mode", () => {
    for (const mode of [LIVE, LIVE_PRIVATE, SANDBOX]) expect(addressAllowed("93.184.216.34", mode)).toEqual({ ok: true });
  });

  it.each(["127.0.0.1", "::1", "::ffff:127.0.0.1", "10.0.0.1", "192.168.0.10", "fd00::5", "100.64.0.1", "192.0.2.1"])(
    "refuses %s in live mode, allows it with WEBHOOK_ALLOW_PRIVATE",
    (ip) => {
      const verdict = addressAllowed(ip, LIVE);
      expect(verdict.ok).toBe(false);
      if (!verdict.ok) expect(verdict.reason).toMatch(/only sent to public addresses unless WEBHOOK_ALLOW_PRIVATE=1/);
      expect(addressAllowed(ip, LIVE_PRIVATE)).toEqual({ ok: true });
    },
  );

  it("allows loopback and private addresses in sandbox mode, but not CGNAT or reserved ones", () => {
    for (const ip of ["127.0.0.1", "::1", "10.0.0.1", "192.168.1.1", "fd00::5"]) expect(addressAllowed(ip, SANDBOX)).toEqual({ ok: true });
    for (const ip of ["100.64.0.1", "192.0.2.1"]) expect(addressAllowed(ip, SANDBOX).ok).toBe(false);
  });

  it.each([
    "169.254.169.254",
    "::ffff:169.254.169.254",
    "fd00:ec2::254",
    "169.254.10.10",
    "fe80::1",
    "224.0.0.1",
    "ff02::1",
    "0.0.0.0",
    "::",
    "255.255.255.255",
  ])("refuses %s in every mode", (ip) => {
    for (const mode of [LIVE, LIVE_PRIVATE, SANDBOX, { sandbox: true, allowPrivate: true }]) {
      const verdict = addressAllowed(ip, mode);
      expect(verdict.ok).toBe(false);
      if (!verdict.ok) expect(verdict.reason).toMatch(/webhooks are never sent there\.$/);
    }
  });

  it("says what the address is", () => {
    expect(addressAllowed("169.254.169.254", LIVE)).toEqual({
      ok: false,
      reason: "169.254.169.254 is a cloud metadata service address; webhooks are never sent there.",
    });
    expect(addressAllowed("127.0.0.1", LIVE)).toEqual({
      ok: false,
      reason: "127.0.0.1 is a loopback address (this machine); webhooks are only sent to public addresses unless WEBHOOK_ALLOW_PRIVATE=1 is set.",
    });
    expect(addressAllowed("nope", SANDBOX)).toEqual({ ok: false, reason: "nope is not an IP address." });
  });
});
