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
