// Streams a chunked body (no Content-Length, so nothing to refuse up front) at a server and reports how it
// answered and how much had been written by then: a server that stops reading at its cap answers long before
// the end; one that reads everything answers only after it. Also reads a process's resident memory.
import { readFileSync } from "node:fs";
import http from "node:http";

export interface FloodResult {
  /** The answer's status, or null when the connection closed without one. */
  status: number | null;
  /** Bytes of body written to the socket before the answer (or the close). */
  sentBytes: number;
  /** True when every byte was written: the server waited for the whole body. */
  complete: boolean;
}

export interface FloodOptions {
  method: string;
  headers?: Record<string, string>;
  totalBytes: number;
  /** The start of the body (a JSON prefix, say); the rest is filler. */
  prefix?: string;
}

const CHUNK = Buffer.alloc(64 * 1024, 0x61);

export function floodChunked(url: string, opts: FloodOptions): Promise<FloodResult> {
  return new Promise((resolve) => {
    let sentBytes = 0;
    let settled = false;
    const finish = (status: number | null) => {
      if (settled) return;
      settled = true;
      req.destroy();
      resolve({ status, sentBytes, complete: sentBytes >= opts.totalBytes });
    };
    const req = http.request(url, { method: opts.method, headers: { ...opts.headers, "transfer-encoding": "chunked" } });
    req.on("response", (res) => {
      res.resume();
      finish(res.statusCode ?? null);
    });
    req.on("error", () => finish(null));
    req.on("close", () => finish(null));
    const pump = () => {
      while (!settled && sentBytes < opts.totalBytes) {
        const chunk = sentBytes === 0 && opts.prefix ? Buffer.from(opts.prefix) : CHUNK;
        sentBytes += chunk.byteLength;
        if (!req.write(chunk)) {
          req.once("drain", pump);
          return;
        }
      }
      if (!settled) req.end();
    };
    pump();
  });
}

/** A process's resident set size in bytes (Linux /proc). */
export function residentBytes(pid: number): number {
  const match = /^VmRSS:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
  if (!match) throw new Error(`no VmRSS for process ${pid}`);
  return Number(match[1]) * 1024;
}
