import ipaddr from "ipaddr.js";

// Which IP addresses an outgoing webhook may be sent to (docs/architecture.md "Outgoing webhooks: the primitives";
// the rules and why: docs/decisions.md "Outgoing webhooks: signing and the address guard (issue 40)"). Pure, no I/O:
// url-policy.ts applies it to an IP literal in a URL, post.ts to every address a name resolves to, at connect time.

export type AddressClass =
  "public" | "loopback" | "private" | "cgnat" | "multicast" | "broadcast" | "unspecified" | "link-local" | "metadata" | "reserved" | "invalid";

export interface AddressMode {
  /** Sandbox mode: loopback and private addresses are allowed (the sandbox's receiver is on 127.0.0.1). */
  sandbox: boolean;
  /** WEBHOOK_ALLOW_PRIVATE=1: loopback, private, CGNAT and reserved addresses are allowed in live mode too. */
  allowPrivate: boolean;
}

export type AddressVerdict = { ok: true } | { ok: false; reason: string };

/** Cloud instance-metadata services; refused in every mode. 100.100.100.200 (Alibaba Cloud) sits in CGNAT space. */
const METADATA = new Set(["169.254.169.254", "fd00:ec2::254", "100.100.100.200"]);

const IPV4_CLASSES: Record<string, AddressClass> = {
  unicast: "public",
  loopback: "loopback",
  private: "private",
  carrierGradeNat: "cgnat",
  multicast: "multicast",
  broadcast: "broadcast",
  unspecified: "unspecified",
  linkLocal: "link-local",
};

const IPV6_CLASSES: Record<string, AddressClass> = {
  unicast: "public",
  loopback: "loopback",
  uniqueLocal: "private",
  multicast: "multicast",
  unspecified: "unspecified",
  linkLocal: "link-local",
};

/**
 * What kind of address `ip` is. IPv4-mapped IPv6 (`::ffff:127.0.0.1`) and NAT64 (`64:ff9b::a00:1`) addresses are
 * judged by the IPv4 address inside them; IPv6 ranges that carry or tunnel to IPv4 some other way (IPv4-compatible
 * `::a.b.c.d`, 6to4, Teredo) and documentation or benchmarking ranges are "reserved". A string that is not an IP
 * address is "invalid".
 */
export function classifyAddress(ip: string): AddressClass {
  let parsed: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    parsed = ipaddr.parse(ip.trim());
  } catch {
    return "invalid";
  }
  if (parsed instanceof ipaddr.IPv4) return classifyV4(parsed);
  if (parsed.isIPv4MappedAddress()) return classifyV4(parsed.toIPv4Address());
  const [p0, p1, p2, p3, p4, p5, p6 = 0, p7 = 0] = parsed.parts;
  const upperZero = [p0, p1, p2, p3, p4, p5].every((p) => p === 0);
  // NAT64's well-known prefix 64:ff9b::/96 reaches the IPv4 address in its last 32 bits.
  if (p0 === 0x64 && p1 === 0xff9b && [p2, p3, p4, p5].every((p) => p === 0)) {
    return classifyV4(new ipaddr.IPv4([p6 >> 8, p6 & 0xff, p7 >> 8, p7 & 0xff]));
  }
  if (METADATA.has(new ipaddr.IPv6(parsed.parts).toString())) return "metadata";
  const range = parsed.range();
  // IPv4-compatible addresses (::a.b.c.d, deprecated) are "unicast" to ipaddr.js; nothing public lives in ::/96.
  if (range === "unicast" && upperZero) return "reserved";
  return IPV6_CLASSES[range] ?? "reserved";
}

function classifyV4(v4: ipaddr.IPv4): AddressClass {
  if (METADATA.has(v4.toString())) return "metadata";
  return IPV4_CLASSES[v4.range()] ?? "reserved";
}

const DESCRIBED: Record<AddressClass, string> = {
  public: "a public address",
  loopback: "a loopback address (this machine)",
  private: "a private network address",
  cgnat: "a shared address (carrier-grade NAT, 100.64.0.0/10)",
  multicast: "a multicast address",
  broadcast: "the broadcast address",
  unspecified: "the unspecified address",
  "link-local": "a link-local address",
  metadata: "a cloud metadata service address",
  reserved: "a reserved or special-purpose address",
  invalid: "not an IP address",
};

/** Refused in every mode: nothing a business runs its systems on lives there, and some are the classic SSRF targets. */
const NEVER: ReadonlySet<AddressClass> = new Set(["link-local", "metadata", "multicast", "broadcast", "unspecified", "invalid"]);
/** Allowed in sandbox mode without WEBHOOK_ALLOW_PRIVATE (the sandbox receiver and a developer's own machines). */
const SANDBOX: ReadonlySet<AddressClass> = new Set(["loopback", "private"]);

/** Whether a webhook may be sent to `ip` in this mode; a refusal carries a sentence an admin can act on. */
export function addressAllowed(ip: string, mode: AddressMode): AddressVerdict {
  const kind = classifyAddress(ip);
  if (kind === "public") return { ok: true };
  const shown = ip.trim();
  if (kind === "invalid") return { ok: false, reason: `${shown} is not an IP address.` };
  if (NEVER.has(kind)) return { ok: false, reason: `${shown} is ${DESCRIBED[kind]}; webhooks are never sent there.` };
  if (mode.allowPrivate || (mode.sandbox && SANDBOX.has(kind))) return { ok: true };
  return {
    ok: false,
    reason: `${shown} is ${DESCRIBED[kind]}; webhooks are only sent to public addresses unless WEBHOOK_ALLOW_PRIVATE=1 is set.`,
  };
}
