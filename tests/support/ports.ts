// Whether something is listening on a local port.
import net from "node:net";

import { waitFor } from "./wait-for";

/** True when something accepts TCP connections on host:port (a second without an answer counts as no). */
export function isListening(port: number, host = "127.0.0.1"): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host, port });
    const done = (value: boolean) => {
      socket.destroy();
      resolve(value);
    };
    socket.setTimeout(1000, () => done(false));
    socket.once("connect", () => done(true));
    socket.once("error", () => done(false));
  });
}

/**
 * Resolves once nothing accepts connections on the port; fails after `timeoutMs`. After Ctrl-C, npm ends at once
 * while the servers under it still close their databases: "nothing left running" is this, not a single look.
 */
export async function untilClosed(port: number, timeoutMs = 15_000): Promise<void> {
  await waitFor(`port ${port} to close`, async () => ((await isListening(port)) ? undefined : true), timeoutMs, 100);
}

/** Fails when any of the ports is taken: a suite with fixed ports needs them free. */
export async function assertPortsFree(...ports: number[]): Promise<void> {
  for (const port of ports) {
    if (await isListening(port)) throw new Error(`port ${port} is already in use (a leftover from an earlier run?); this suite needs it free`);
  }
}

function isFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.once("error", () => resolve(false));
    // The dual-stack wildcard, like `next start`: a port taken on either family counts as taken.
    server.listen({ port, host: "::" }, () => server.close(() => resolve(true)));
  });
}

const handedOut = new Set<number>();

// Below Linux's ephemeral range (32768–60999 by default): a port picked there can be taken, before its server
// listens, as the local end of any outgoing connection (a database client, a fetch), as CI once saw (EADDRINUSE).
// Suites that run side by side in CI keep apart: Playwright's servers in 27000–32767, and each vitest worker (the
// hardening suite's hold their ports for minutes) in its own slice of 20000–26999.
const E2E_RANGE = [27_000, 32_767] as const;
const WORKER_SLICE = 1_750;

function rangeFor(user: "e2e" | "vitest"): readonly [number, number] {
  if (user === "e2e") return E2E_RANGE;
  const slice = Number(process.env.VITEST_POOL_ID ?? "0") % 4;
  return [20_000 + slice * WORKER_SLICE, 20_000 + (slice + 1) * WORKER_SLICE - 1];
}

/**
 * The first of `count` consecutive free ports (a sandbox takes three: its API host, its verify host and its mail sink), picked at
 * random in the caller's range and checked, never one this process handed out before: suites running side by side,
 * and a leftover server from an earlier run, cannot collide with a fixed number.
 */
export async function freePortRun(count = 1, user: "e2e" | "vitest" = "vitest"): Promise<number> {
  const [lowest, highest] = rangeFor(user);
  for (let attempt = 0; attempt < 200; attempt++) {
    const first = lowest + Math.floor(Math.random() * (highest - lowest + 2 - count));
    const run = Array.from({ length: count }, (_, i) => first + i);
    if (run.some((p) => handedOut.has(p))) continue;
    if ((await Promise.all(run.map(isFree))).every(Boolean)) {
      for (const p of run) handedOut.add(p);
      return first;
    }
  }
  throw new Error(`no run of ${count} free port(s) found between ${lowest} and ${highest}`);
}
