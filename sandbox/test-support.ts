// Helpers for the sandbox's own tests: HTTP calls, bounded polling and a local webhook receiver.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { startSandbox, type Sandbox, type SandboxOptions } from "./server";

export const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

export function startTestSandbox(overrides: SandboxOptions = {}): Promise<Sandbox> {
  return startSandbox({ port: 0, autoDelayMs: 50, webhookRetryDelaysMs: [20, 40], slowDelayMs: 150, ...overrides });
}

export interface CallResult {
  status: number;
  headers: Headers;
  text: string;
  json: unknown;
}

interface CallOptions {
  /** Bearer key; null sends no Authorization header. */
  key?: string | null;
  body?: unknown;
  rawBody?: string;
  headers?: Record<string, string>;
  signal?: AbortSignal;
}

export async function call(sandbox: Sandbox, base: string, method: string, path: string, opts: CallOptions = {}): Promise<CallResult> {
  const headers: Record<string, string> = { ...opts.headers };
  const key = opts.key === undefined ? sandbox.apiKey : opts.key;
  if (key !== null) headers.authorization = `Bearer ${key}`;
  let body: string | undefined = opts.rawBody;
  if (opts.body !== undefined) {
    body = JSON.stringify(opts.body);
    headers["content-type"] ??= "application/json";
  }
  const res = await fetch(`${base}${path}`, { method, headers, body, signal: opts.signal, redirect: "manual" });
  const text = await res.text();
  let json: unknown = undefined;
  try {
    json = JSON.parse(text) as unknown;
  } catch {
    json = undefined;
  }
  return { status: res.status, headers: res.headers, text, json };
}

/** Polls until probe returns a value, failing after timeoutMs instead of sleeping a fixed time. */
export async function waitFor<T>(what: string, probe: () => Promise<T | undefined> | T | undefined, timeoutMs = 5000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

export interface ReceivedHook {
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

export interface Receiver {
  url: string;
  received: ReceivedHook[];
  close(): Promise<void>;
}

/** A webhook endpoint answering with the given statuses in turn (the last one repeats). */
export async function startReceiver(statuses: number[] = [200]): Promise<Receiver> {
  const received: ReceivedHook[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      received.push({ headers: req.headers, body: Buffer.concat(chunks) });
      res.statusCode = statuses[Math.min(received.length, statuses.length) - 1] ?? 200;
      res.end("ok");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks/service`,
    received,
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
