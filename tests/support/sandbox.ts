// A real sandbox in this process on a free port, with the tests' defaults, and plain calls to it.
// Its control API is in sandbox-control.ts.
import { startSandbox, type Sandbox, type SandboxOptions } from "@/sandbox/server";

/**
 * Starts a sandbox on random ports with the sandbox's own development key (its tests check near misses
 * of it), auto-users acting after 50 ms, webhook retries after 20 and 40 ms and the 'slow' fault at
 * 150 ms, silent; `overrides` win.
 */
export function startTestSandbox(overrides: SandboxOptions = {}): Promise<Sandbox> {
  return startSandbox({ port: 0, autoDelayMs: 50, webhookRetryDelaysMs: [20, 40], slowDelayMs: 150, ...overrides });
}

export interface CallResult {
  status: number;
  headers: Headers;
  text: string;
  /** The body parsed, or undefined when it is not JSON. */
  json: unknown;
}

export interface CallOptions {
  /** Bearer key; the sandbox's own when not given, none when null. */
  key?: string | null;
  /** Sent as JSON. */
  body?: unknown;
  /** Sent as is (when there is no `body`). */
  rawBody?: string;
  headers?: Record<string, string>;
  signal?: AbortSignal;
}

/** One call to `base` (the sandbox's API or verify host) with its key; redirects are not followed. */
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
