import "server-only";

import dns from "node:dns";
import http from "node:http";
import https from "node:https";
import type { LookupFunction } from "node:net";
import { StringDecoder } from "node:string_decoder";

import { addressAllowed, type AddressMode } from "./address-policy";
import { ipLiteralHost } from "./url-policy";

// One attempt at one outgoing webhook delivery (docs/architecture.md "Outgoing webhooks: the primitives"). The host is
// resolved at every call and the address guard runs inside the socket's own `lookup`, so the address checked is the
// address connected to: there is no second resolution a DNS answer could change in between (docs/decisions.md
// "Outgoing webhooks: signing and the address guard (issue 40)"). node:http, not fetch: undici's connect-time lookup
// is harder to reach, and fetch follows redirects unless told not to.

export const DEFAULT_TIMEOUT_MS = 15_000;
export const DEFAULT_MAX_RESPONSE_BYTES = 4096;

export interface PostRequest {
  url: string;
  /** The signing headers and any others; content-type defaults to application/json, content-length is always set here. */
  headers: Readonly<Record<string, string>>;
  body: string;
  /** The whole attempt: resolving, connecting, sending and reading the answer's first bytes. */
  timeoutMs?: number;
  mode: AddressMode;
  /** How much of the answer's body is kept; the rest is never read (the connection is dropped). */
  maxResponseBytes?: number;
}

export type PostOutcome =
  | {
      kind: "answered";
      status: number;
      /** The Retry-After header as sent, or null. */
      retryAfter: string | null;
      /** Every response header, names in lower case, repeated ones joined with ", ". */
      headers: Record<string, string>;
      /** The body's first `maxResponseBytes` bytes as UTF-8 (a character cut in half at the end is left out). */
      bodyExcerpt: string;
      durationMs: number;
    }
  /** The guard refused the address (or the URL): no connection was made, nothing was sent. */
  | { kind: "refused"; reason: string; durationMs: number }
  /** No answer: DNS failure, connection refused or reset, TLS error, timeout. */
  | { kind: "failed"; reason: string; durationMs: number };

const USER_AGENT = "Fundboard-Webhooks/1.0";

/** Carries the guard's refusal out of the lookup callback, through the socket's error, to the outcome. */
class AddressRefused extends Error {
  constructor(readonly reason: string) {
    super(reason);
    this.name = "AddressRefused";
  }
}

/**
 * dns.lookup with the address guard: every address the name resolves to must be allowed, or the connection is
 * refused before it is made. Whether node asks for one address or all (happy eyeballs), it only ever gets checked ones.
 */
function guardedLookup(mode: AddressMode): LookupFunction {
  return (hostname, options, callback) => {
    dns.lookup(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) {
        callback(error, "");
        return;
      }
      if (addresses.length === 0) {
        callback(Object.assign(new Error(`${hostname} resolved to no address`), { code: "ENOTFOUND" }), "");
        return;
      }
      for (const { address } of addresses) {
        const verdict = addressAllowed(address, mode);
        if (!verdict.ok) {
          callback(new AddressRefused(`${hostname} resolves to ${address}: ${verdict.reason}`), "");
          return;
        }
      }
      if (options.all) callback(null, addresses);
      else callback(null, addresses[0]!.address, addresses[0]!.family);
    });
  };
}

/** A one-line reason with no stack: what the delivery list shows for an attempt that got no answer. */
function failureReason(error: unknown, host: string): string {
  const code = typeof error === "object" && error !== null && "code" in error ? String((error as { code: unknown }).code) : "";
  switch (code) {
    case "ENOTFOUND":
    case "EAI_AGAIN":
    case "EAI_NODATA":
    case "EAI_NONAME":
      return `Could not resolve ${host} (${code}).`;
    case "ECONNREFUSED":
      return `Connection refused by ${host} (ECONNREFUSED).`;
    case "ECONNRESET":
      return `Connection reset by ${host} before it answered (ECONNRESET).`;
    case "EHOSTUNREACH":
    case "ENETUNREACH":
      return `${host} is unreachable (${code}).`;
    case "EPIPE":
      return `${host} closed the connection while the request was being sent (EPIPE).`;
  }
  const message = error instanceof Error ? error.message : String(error);
  const oneLine = message.replace(/\s+/g, " ").trim().slice(0, 200);
  if (code.startsWith("ERR_TLS") || code.includes("CERT") || /ssl|tls|certificate/i.test(message)) return `TLS error with ${host}: ${oneLine}`;
  return code ? `Request to ${host} failed: ${oneLine} (${code}).` : `Request to ${host} failed: ${oneLine}`;
}

function flatHeaders(headers: http.IncomingHttpHeaders): Record<string, string> {
  const flat: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined) flat[name] = Array.isArray(value) ? value.join(", ") : value;
  }
  return flat;
}

/** POSTs `body` to `url` once, never following a redirect; never throws. */
export function postDelivery(request: PostRequest): Promise<PostOutcome> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const timeoutMs = request.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const maxBytes = request.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;

  let url: URL;
  try {
    url = new URL(request.url);
  } catch {
    return Promise.resolve({ kind: "refused", reason: "The endpoint URL is not a valid URL.", durationMs: elapsed() });
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    return Promise.resolve({ kind: "refused", reason: `The endpoint URL must be http(s), not ${url.protocol}`, durationMs: elapsed() });
  }
  if (url.username !== "" || url.password !== "") {
    return Promise.resolve({ kind: "refused", reason: "The endpoint URL must not contain a user name or password.", durationMs: elapsed() });
  }
  // An IP literal is connected to without a lookup, so it is checked here; a name is checked in guardedLookup.
  const literal = ipLiteralHost(url);
  if (literal !== null) {
    const verdict = addressAllowed(literal, request.mode);
    if (!verdict.ok) return Promise.resolve({ kind: "refused", reason: verdict.reason, durationMs: elapsed() });
  }
  const host = literal ?? url.hostname;

  return new Promise<PostOutcome>((resolve) => {
    let settled = false;
    let req: http.ClientRequest | null = null;
    let answer: { status: number; headers: Record<string, string>; chunks: Buffer[]; bytes: number } | null = null;

    const excerpt = () => {
      if (!answer) return "";
      return new StringDecoder("utf8").write(Buffer.concat(answer.chunks).subarray(0, maxBytes));
    };
    const finish = (outcome: PostOutcome) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      // Whatever is still in flight (an unread body, a half-open connection) is dropped with the socket.
      req?.destroy();
      resolve(outcome);
    };
    const finishAnswered = () => {
      if (!answer) return;
      finish({
        kind: "answered",
        status: answer.status,
        retryAfter: answer.headers["retry-after"] ?? null,
        headers: answer.headers,
        bodyExcerpt: excerpt(),
        durationMs: elapsed(),
      });
    };

    const headers: Record<string, string> = { "content-type": "application/json", "user-agent": USER_AGENT };
    for (const [name, value] of Object.entries(request.headers)) headers[name.toLowerCase()] = value;
    headers["content-length"] = String(Buffer.byteLength(request.body));

    try {
      const options: https.RequestOptions = {
        method: "POST",
        protocol: url.protocol,
        hostname: host,
        port: url.port === "" ? undefined : Number(url.port),
        path: `${url.pathname}${url.search}`,
        headers,
        // A fresh connection for every attempt: no pooled socket to an address checked some other time.
        agent: false,
        lookup: guardedLookup(request.mode),
      };
      req = url.protocol === "https:" ? https.request(options) : http.request(options);
    } catch (error) {
      resolve({ kind: "failed", reason: failureReason(error, host), durationMs: elapsed() });
      return;
    }

    const sent = req;
    const timer = setTimeout(() => {
      // An answer whose body is still trickling in counts as answered with what came; no answer at all is a failure.
      if (answer) finishAnswered();
      else finish({ kind: "failed", reason: `No answer from ${host} within ${Math.round(timeoutMs / 100) / 10} s.`, durationMs: elapsed() });
    }, timeoutMs);

    sent.on("error", (error) => {
      if (answer) finishAnswered();
      else if (error instanceof AddressRefused) finish({ kind: "refused", reason: error.reason, durationMs: elapsed() });
      else finish({ kind: "failed", reason: failureReason(error, host), durationMs: elapsed() });
    });
    sent.on("response", (res) => {
      answer = { status: res.statusCode ?? 0, headers: flatHeaders(res.headers), chunks: [], bytes: 0 };
      const current = answer;
      res.on("data", (chunk: Buffer) => {
        if (current.bytes < maxBytes) {
          current.chunks.push(chunk);
          current.bytes += chunk.length;
        }
        // Enough kept: stop reading so an endless or huge answer holds no more memory than this.
        if (current.bytes >= maxBytes) finishAnswered();
      });
      res.on("end", finishAnswered);
      res.on("error", finishAnswered);
      res.on("aborted", finishAnswered);
      res.on("close", finishAnswered);
    });
    sent.end(request.body);
  });
}
