import { addressAllowed, type AddressMode } from "./address-policy";

// The endpoint URL check made when an admin saves an endpoint (docs/architecture.md "Outgoing webhooks: the
// primitives"). It sees only the URL: a host name is accepted here and its addresses are checked at every attempt,
// at connect time, by post.ts. The message of a refusal is what the 422 field error on `url` says.

export type EndpointUrlCheck = { ok: true; url: string } | { ok: false; message: string };

/** Longer URLs are refused (no receiver needs one, and the delivery list shows it). */
export const MAX_ENDPOINT_URL_LENGTH = 2048;

/** The host as a bare IP address when it is an IP literal (WHATWG parsing has already normalised 0x7f.1 and 2130706433 to 127.0.0.1), else null. */
export function ipLiteralHost(url: URL): string | null {
  const host = url.hostname;
  if (host.startsWith("[") && host.endsWith("]")) return host.slice(1, -1);
  return /^\d{1,3}(\.\d{1,3}){3}$/.test(host) ? host : null;
}

/** Names that always mean this machine (RFC 6761); refused up front in live mode rather than at the first attempt. */
function isLocalhostName(host: string): boolean {
  const name = host.replace(/\.$/, "");
  return name === "localhost" || name.endsWith(".localhost");
}

/** Whether `raw` may be an endpoint's URL in this mode; on success the URL as WHATWG parsing writes it. */
export function checkEndpointUrl(raw: string, mode: AddressMode): EndpointUrlCheck {
  const text = raw.trim();
  if (text === "") return { ok: false, message: "Enter the URL the webhooks should be sent to." };
  if (text.length > MAX_ENDPOINT_URL_LENGTH) return { ok: false, message: `The URL must be at most ${MAX_ENDPOINT_URL_LENGTH} characters.` };
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return { ok: false, message: "This is not a valid URL; write it in full, such as https://erp.example.com/webhooks." };
  }
  if (url.protocol !== "https:" && !(mode.sandbox && url.protocol === "http:")) {
    return {
      ok: false,
      message: mode.sandbox
        ? "The URL must start with https:// or http://."
        : "The URL must start with https:// (plain http:// is only allowed in sandbox mode).",
    };
  }
  if (url.username !== "" || url.password !== "") {
    return { ok: false, message: "The URL must not contain a user name or password; deliveries are authenticated by their signature." };
  }
  if (url.hostname === "") return { ok: false, message: "The URL must name a host." };
  const literal = ipLiteralHost(url);
  if (literal !== null) {
    const verdict = addressAllowed(literal, mode);
    if (!verdict.ok) return { ok: false, message: `This URL's host is not allowed: ${verdict.reason}` };
  } else if (isLocalhostName(url.hostname) && !mode.sandbox && !mode.allowPrivate) {
    return {
      ok: false,
      message: "This URL's host is not allowed: localhost is this machine; webhooks are only sent to public addresses unless WEBHOOK_ALLOW_PRIVATE=1 is set.",
    };
  }
  return { ok: true, url: url.href };
}
