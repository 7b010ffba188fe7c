// Throwaway real HTTP servers on 127.0.0.1: one answering as each test tells it (for the answers the
// sandbox cannot give: redirects, huge or odd bodies), and a webhook receiver.
import http from "node:http";
import type { AddressInfo } from "node:net";

export type Handler = (req: http.IncomingMessage, res: http.ServerResponse) => void;

interface Listening {
  url: string;
  close(): Promise<void>;
}

/** Listens on a random port; `onRequest` gets each request once its whole body has arrived. */
async function listen(onRequest: (req: http.IncomingMessage, body: Buffer, res: http.ServerResponse) => void): Promise<Listening> {
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => onRequest(req, Buffer.concat(chunks), res));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

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
  /** Answers with `handler` from now on, and forgets what it saw. */
  handle(handler: Handler): void;
  close(): Promise<void>;
}

/** Answers 500 until told otherwise with handle(). */
export async function startTestServer(): Promise<TestServer> {
  const seen: SeenRequest[] = [];
  let handler: Handler = (_req, res) => {
    res.writeHead(500).end();
  };
  const server = await listen((req, body, res) => {
    const path = new URL(req.url ?? "/", "http://test.invalid").pathname;
    seen.push({ method: req.method ?? "", path, headers: req.headers, body: body.toString("utf8") });
    handler(req, res);
  });
  return {
    url: server.url,
    seen,
    count: (path) => seen.filter((s) => s.path === path).length,
    handle(next) {
      handler = next;
      seen.length = 0;
    },
    close: server.close,
  };
}

export function sendJson(res: http.ServerResponse, status: number, value: unknown, headers: Record<string, string> = {}): void {
  const body = JSON.stringify(value);
  res.writeHead(status, { "content-type": "application/json", "content-length": String(Buffer.byteLength(body)), ...headers });
  res.end(body);
}

/** A port that was just free and is now closed, so connecting to it is refused. */
export async function closedPortUrl(): Promise<string> {
  const server = await listen(() => {});
  await server.close();
  return server.url;
}

export interface ReceivedHook {
  headers: http.IncomingHttpHeaders;
  /** The exact bytes received. */
  body: Buffer;
}

export interface Receiver {
  /** Its webhook URL (…/hooks/service; any path is received). */
  url: string;
  received: ReceivedHook[];
  close(): Promise<void>;
}

/** A webhook endpoint answering with the given statuses in turn (the last one repeats). */
export async function startReceiver(statuses: number[] = [200]): Promise<Receiver> {
  const received: ReceivedHook[] = [];
  const server = await listen((req, body, res) => {
    received.push({ headers: req.headers, body });
    res.statusCode = statuses[Math.min(received.length, statuses.length) - 1] ?? 200;
    res.end("ok");
  });
  return { url: `${server.url}/hooks/service`, received, close: server.close };
}
