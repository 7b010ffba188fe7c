// The endpoint URL check at creation (docs/architecture.md "Outgoing webhooks: the primitives").
import { describe, expect, it } from "vitest";

import type { AddressMode } from "./address-policy";
import { checkEndpointUrl } from "./url-policy";

const LIVE: AddressMode = { sandbox: false, allowPrivate: false };
const LIVE_PRIVATE: AddressMode = { sandbox: false, allowPrivate: true };
const SANDBOX: AddressMode = { sandbox: true, allowPrivate: false };

function message(raw: string, mode: AddressMode): string {
  const check = checkEndpointUrl(raw, mode);
  if (check.ok) throw new Error(`${raw} was accepted in ${JSON.stringify(mode)}`);
  return check.message;
}

describe("checkEndpointUrl", () => {
  it("accepts an https URL with a name, as WHATWG parsing writes it", () => {
    expect(checkEndpointUrl("  https://ERP.Example.com:8443/hooks/fundboard?x=1 ", LIVE)).toEqual({
      ok: true,
      url: "https://erp.example.com:8443/hooks/fundboard?x=1",
    });
    expect(checkEndpointUrl("https://93.184.216.34/hooks", LIVE)).toEqual({ ok: true, url: "https://93.184.216.34/hooks" });
  });

  it("refuses plain http in live mode, allows it in sandbox mode", () => {
    expect(message("http://erp.example.com/hooks", LIVE)).toBe("The URL must start with https:// (plain http:// is only allowed in sandbox mode).");
    expect(message("http://erp.example.com/hooks", LIVE_PRIVATE)).toMatch(/must start with https:\/\//);
    expect(checkEndpointUrl("http://erp.example.com/hooks", SANDBOX)).toEqual({ ok: true, url: "http://erp.example.com/hooks" });
  });

  it("refuses what is not an http(s) URL, credentials, and an empty or overlong URL", () => {
    expect(message("erp.example.com/hooks", LIVE)).toMatch(/not a valid URL/);
    expect(message("ftp://erp.example.com/", SANDBOX)).toBe("The URL must start with https:// or http://.");
    expect(message("javascript:alert(1)", SANDBOX)).toMatch(/must start with/);
    expect(message("https://user:pass@erp.example.com/", LIVE)).toMatch(/must not contain a user name or password/);
    expect(message("   ", LIVE)).toMatch(/Enter the URL/);
    expect(message(`https://erp.example.com/${"a".repeat(2100)}`, LIVE)).toMatch(/at most 2048 characters/);
  });

  // WHATWG parsing turns every IPv4 notation into dotted decimal before the check sees it.
  it.each([
    "https://127.0.0.1/",
    "https://[::1]/",
    "https://[::ffff:127.0.0.1]/",
    "https://2130706433/",
    "https://0x7f.1/",
    "https://0177.0.0.1/",
    "https://127.1/",
    "https://10.0.0.1/",
    "https://100.64.0.1/",
    "https://localhost/",
    "https://api.localhost./",
  ])("refuses %s in live mode and allows it with WEBHOOK_ALLOW_PRIVATE", (raw) => {
    expect(message(raw, LIVE)).toMatch(/^This URL's host is not allowed: .*only sent to public addresses unless WEBHOOK_ALLOW_PRIVATE=1 is set\.$/);
    expect(checkEndpointUrl(raw, LIVE_PRIVATE).ok).toBe(true);
  });

  it("names the address the notation stands for", () => {
    expect(message("https://2130706433/", LIVE)).toMatch(/: 127\.0\.0\.1 is a loopback address/);
    expect(message("https://0x7f.1/", LIVE)).toMatch(/: 127\.0\.0\.1 is a loopback address/);
  });

  it.each([
    "http://169.254.169.254/latest/meta-data/",
    "http://[fd00:ec2::254]/",
    "http://[fe80::1]/",
    "http://169.254.0.1/",
    "http://0.0.0.0/",
    "http://[::]/",
    "http://0/",
  ])("refuses %s in every mode", (raw) => {
    for (const mode of [SANDBOX, { sandbox: true, allowPrivate: true }]) expect(message(raw, mode)).toMatch(/webhooks are never sent there\.$/);
    for (const mode of [LIVE, LIVE_PRIVATE]) expect(message(raw.replace("http:", "https:"), mode)).toMatch(/webhooks are never sent there\.$/);
  });

  it("allows loopback and private hosts over http in sandbox mode", () => {
    for (const raw of ["http://127.0.0.1:4010/sandbox/hooks/erp", "http://[::1]:4010/", "http://localhost:4010/", "http://192.168.1.20/hooks"]) {
      expect(checkEndpointUrl(raw, SANDBOX).ok).toBe(true);
    }
    expect(checkEndpointUrl("http://127.0.0.1:4010/sandbox/hooks/erp", SANDBOX)).toEqual({ ok: true, url: "http://127.0.0.1:4010/sandbox/hooks/erp" });
  });

  it("refuses the live-mode forms the brief lists over http too", () => {
    for (const raw of [
      "http://127.0.0.1",
      "http://[::1]",
      "http://[::ffff:127.0.0.1]",
      "http://2130706433",
      "http://0x7f.1",
      "http://10.0.0.1",
      "http://100.64.0.1",
      "http://[fe80::1]",
      "http://169.254.169.254",
    ]) {
      expect(checkEndpointUrl(raw, LIVE).ok).toBe(false);
    }
  });
});
