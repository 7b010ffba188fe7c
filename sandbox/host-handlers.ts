// Turns route tables into request listeners: service routes get stats, faults and the bearer check; open routes do not.
import type { IncomingMessage, ServerResponse } from "node:http";
import { actOutFault, type FaultTable } from "./faults";
import { fail, HttpError, send, type Reply } from "./http-util";
import { findRoute, type Route } from "./router";
import type { CallStats } from "./stats";
import type { TimerSet } from "./timers";

export interface ServiceGuards {
  apiKey: string;
  stats: CallStats;
  faults: FaultTable;
  timers: TimerSet;
  slowDelayMs: number;
  log: (line: string) => void;
}

export type Listener = (req: IncomingMessage, res: ServerResponse) => void;

export function requestTarget(req: IncomingMessage): { path: string; query: URLSearchParams } {
  const url = new URL(req.url ?? "/", "http://sandbox.invalid");
  return { path: url.pathname, query: url.searchParams };
}

/** Calls to the simulated service: counted, fault-injectable and key-protected. */
export async function serveService(routes: readonly Route[], guards: ServiceGuards, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const method = req.method ?? "GET";
  const { path, query } = requestTarget(req);
  const found = findRoute(routes, method, path);
  guards.stats.record(method, found.kind === "none" ? path : found.kind === "match" ? found.route.pattern : found.pattern);
  const fault = guards.faults.take(path);
  if (fault) {
    guards.log(`fault ${fault} on ${method} ${path}`);
    const finished = await actOutFault(fault, res, (ms) => guards.timers.delay(ms), guards.slowDelayMs);
    if (finished) return;
  }
  if (req.headers.authorization !== `Bearer ${guards.apiKey}`) {
    send(res, fail(401, "Invalid or missing API key"));
    return;
  }
  if (found.kind === "none") {
    send(res, fail(404, `No route for ${method} ${path}`));
    return;
  }
  if (found.kind === "wrong-method") {
    send(res, fail(405, `${method} is not allowed on ${found.pattern}`, { allow: found.allowed.join(", ") }));
    return;
  }
  send(res, await run(() => found.route.handler({ req, params: found.params, query }), guards.log));
}

/** Sandbox-only pages and controls: no key, no stats, no faults. */
export async function serveOpen(routes: readonly Route[], log: (line: string) => void, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const method = req.method ?? "GET";
  const { path, query } = requestTarget(req);
  const found = findRoute(routes, method, path);
  if (found.kind === "match") {
    send(res, await run(() => found.route.handler({ req, params: found.params, query }), log));
  } else if (found.kind === "wrong-method") {
    send(res, fail(405, `${method} is not allowed on ${found.pattern}`, { allow: found.allowed.join(", ") }));
  } else {
    send(res, fail(404, `No route for ${method} ${path}`));
  }
}

async function run(handler: () => Reply | Promise<Reply>, log: (line: string) => void): Promise<Reply> {
  try {
    return await handler();
  } catch (error) {
    if (error instanceof HttpError) return fail(error.status, error.message, error.headers);
    log(`internal error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    return fail(500, "Internal sandbox error");
  }
}

/** Wraps a listener with access logging (when `logCalls`) and a last-resort 500, so no request is left unanswered by accident. */
export function listener(
  name: string,
  handle: (req: IncomingMessage, res: ServerResponse) => Promise<void>,
  log: (line: string) => void,
  logCalls: boolean,
): Listener {
  return (req, res) => {
    const started = Date.now();
    if (logCalls) res.on("finish", () => log(`${name} ${req.method ?? "?"} ${req.url ?? "?"} → ${res.statusCode} (${Date.now() - started} ms)`));
    handle(req, res).catch((error: unknown) => {
      log(`internal error: ${String(error)}`);
      send(res, fail(500, "Internal sandbox error"));
    });
  };
}
