import "server-only";
import http from "node:http";
import type { AddressInfo } from "node:net";

// A throwaway real HTTP server for the answers the sandbox cannot give (redirects, huge or odd bodies).

export type Handler = (req: http.IncomingMessage, res: http.ServerResponse) => void;

export interface SeenRequest {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

export interface TestServer {
  url: string;
  seen: SeenRequest[];
  /** Requests seen for one path. */
  count(path: string): number;
  handle(handler: Handler): void;
  close(): Promise<void>;
}

export async function startTestServer(): Promise<TestServer> {
  const seen: SeenRequest[] = [];
  let handler: Handler = (_req, res) => {
    res.writeHead(500).end();
  };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const path = new URL(req.url ?? "/", "http://test.invalid").pathname;
      seen.push({ method: req.method ?? "", path, headers: req.headers, body: Buffer.concat(chunks).toString("utf8") });
      handler(req, res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    seen,
    count: (path) => seen.filter((s) => s.path === path).length,
    handle(next) {
      handler = next;
      seen.length = 0;
    },
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

export function sendJson(res: http.ServerResponse, status: number, value: unknown, headers: Record<string, string> = {}): void {
  const body = JSON.stringify(value);
  res.writeHead(status, { "content-type": "application/json", "content-length": String(Buffer.byteLength(body)), ...headers });
  res.end(body);
}

/** A port that was just free and is now closed, so connecting to it is refused. */
export async function closedPortUrl(): Promise<string> {
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}`;
}
