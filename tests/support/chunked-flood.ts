// Streams a chunked body (no Content-Length, so nothing to refuse up front) at a server and reports how it
// answered and how much had been written by then: a server that stops reading at its cap answers long before
// the end; one that reads everything answers only after it. (tests/support/process-memory.ts reads the server's memory.)
import http from "node:http";

export interface FloodResult {
  /** The answer's status, or null when the connection closed without one. */
  status: number | null;
  /** The answer's body (its first 64 KiB), or null without an answer. */
  body: string | null;
  /** Bytes of body written to the socket before the answer (or the close). */
  sentBytes: number;
  /** True when every byte was written: the server waited for the whole body. */
  complete: boolean;
}

export interface FloodOptions {
  method: string;
  headers?: Record<string, string>;
  totalBytes: number;
  /** The start of the body (a JSON prefix, say); the rest is `filler` (default "a"), repeated. */
  prefix?: string;
  filler?: string;
}

export function floodChunked(url: string, opts: FloodOptions): Promise<FloodResult> {
  return new Promise((resolve) => {
    const chunk = Buffer.alloc(64 * 1024, opts.filler ?? "a");
    let sentBytes = 0;
    let settled = false;
    let answered = false;
    const finish = (status: number | null, body: string | null) => {
      if (settled) return;
      settled = true;
      req.destroy();
      resolve({ status, body, sentBytes, complete: sentBytes >= opts.totalBytes });
    };
    const req = http.request(url, { method: opts.method, headers: { ...opts.headers, "transfer-encoding": "chunked" } });
    req.on("response", (res) => {
      // Stop writing at once; the answer's body is read to its end (or its first 64 KiB).
      answered = true;
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (text: string) => {
        body += text;
        if (body.length > 65_536) finish(res.statusCode ?? null, body.slice(0, 65_536));
      });
      res.on("end", () => finish(res.statusCode ?? null, body));
      res.on("error", () => finish(res.statusCode ?? null, body));
    });
    req.on("error", () => finish(null, null));
    req.on("close", () => finish(null, null));
    const pump = () => {
      while (!settled && !answered && sentBytes < opts.totalBytes) {
        const next = sentBytes === 0 && opts.prefix ? Buffer.from(opts.prefix) : chunk;
        sentBytes += next.byteLength;
        if (!req.write(next)) {
          req.once("drain", pump);
          return;
        }
      }
      if (!settled && !answered) req.end();
    };
    pump();
  });
}
