import "server-only";

import { getConfig } from "@/lib/config";

import { plainAddress } from "./address";
import { peekProcessSingleton } from "@/lib/util/process-singleton";

const PEER_HEADER = "x-fundboard-peer";

/** True when scripts/request-preload.cjs runs in this process, so PEER_HEADER holds the socket's address. */
function peerStampActive(): boolean {
  // Set by that script under the process-singleton key "peerStamp" (it cannot import this module).
  return peekProcessSingleton<boolean>("peerStamp") === true;
}

/**
 * The caller's address (the README's Configuration, TRUST_PROXY): with 0 trusted proxies, the socket's; with n, the
 * address the outermost of those n proxies saw, counting from the right of X-Forwarded-For plus the
 * socket. Entries left of that were written by the client and are never believed.
 */
export function resolveClientIp(headers: Headers, trustProxy: number, stamped: boolean): string {
  const peer = stamped ? headers.get(PEER_HEADER)?.trim() || null : null;
  if (trustProxy === 0) return peer ? plainAddress(peer) : "unknown";
  const forwarded = (headers.get("x-forwarded-for") ?? "")
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
  const chain = peer ? [...forwarded, peer] : forwarded;
  // Without the stamp the last entry is what the nearest proxy appended (it is the socket's peer).
  const index = chain.length - (peer ? 1 : 0) - trustProxy;
  const address = chain[Math.max(0, index)] ?? peer;
  return address ? plainAddress(address) : "unknown";
}

/** The caller's address for throttling and logs, as this deployment's TRUST_PROXY allows. */
export function clientIp(headers: Headers): string {
  return resolveClientIp(headers, getConfig().trustProxy, peerStampActive());
}
