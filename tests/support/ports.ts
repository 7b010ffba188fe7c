// Whether something is listening on a local port.
import net from "node:net";

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

/**
 * The first of `count` consecutive free ports (a sandbox takes two: its API host and its verify host), picked at
 * random in 20000–59999 and checked, never one this process handed out before: suites running side by side, and a
 * leftover server from an earlier run, cannot collide with a fixed number.
 */
export async function freePortRun(count = 1): Promise<number> {
  for (let attempt = 0; attempt < 200; attempt++) {
    const first = 20_000 + Math.floor(Math.random() * (40_000 - count));
    const run = Array.from({ length: count }, (_, i) => first + i);
    if (run.some((p) => handedOut.has(p))) continue;
    if ((await Promise.all(run.map(isFree))).every(Boolean)) {
      for (const p of run) handedOut.add(p);
      return first;
    }
  }
  throw new Error(`no run of ${count} free port(s) found between 20000 and 59999`);
}
