// Free ports inside the bench's ranges (3400–3499 for servers, 4400–4499 for the sandbox); other suites use other ranges.
import net from "node:net";

function isFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.once("error", () => resolve(false));
    // The dual-stack wildcard, like `next start`: a port taken on either family counts as taken.
    server.listen({ port, host: "::" }, () => server.close(() => resolve(true)));
  });
}

const taken = new Set<number>();

/** The first free run of `count` consecutive ports in [from, to], not handed out before in this run. */
export async function freePorts(from: number, to: number, count = 1): Promise<number> {
  for (let port = from; port + count - 1 <= to; port++) {
    const run = Array.from({ length: count }, (_, i) => port + i);
    if (run.some((p) => taken.has(p))) continue;
    const free = await Promise.all(run.map(isFree));
    if (free.every(Boolean)) {
      for (const p of run) taken.add(p);
      return port;
    }
  }
  throw new Error(`no ${count} free consecutive port(s) between ${from} and ${to}`);
}

export const SERVER_PORTS = [3400, 3499] as const;
export const SANDBOX_PORTS = [4400, 4499] as const;
