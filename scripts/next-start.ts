// How every server of ours runs `next start`: with the peer-address stamp preloaded (TRUST_PROXY).
import path from "node:path";

/** Longer than the 60 s idle timeout of common load balancers, so they, not the server, close an idle connection. */
export const KEEP_ALIVE_MS = 65_000;

/**
 * After each full collection the heap may grow to 1.5 times what was live, not V8's up to 4 times: six exports
 * streaming at once peaked at 671 MB with V8's own factor and 470 MB with this, and finished sooner
 * (docs/decisions.md, "What the exports' memory is, measured"). The standalone server sets the same at its start.
 */
export const HEAP_GROWING_FLAG = "--heap-growing-percent=50";

/** The command and arguments for `next start -p port [-H host]` in `root`, for spawn(). */
export function nextStartCommand(root: string, port: number, host?: string): { command: string; args: string[] } {
  return {
    command: process.execPath,
    args: [
      HEAP_GROWING_FLAG,
      "--require",
      path.join(root, "scripts", "request-preload.cjs"),
      path.join(root, "node_modules", "next", "dist", "bin", "next"),
      "start",
      "-p",
      String(port),
      // Idle keep-alive connections are kept 65 s, not Node's 5 s: a client (a proxy, a browser, a test's request
      // context) reusing one the server was closing at that moment got ECONNRESET (docs/decisions.md, "Keep-alive").
      "--keepAliveTimeout",
      String(KEEP_ALIVE_MS),
      ...(host ? ["-H", host] : []),
    ],
  };
}
