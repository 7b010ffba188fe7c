// Tiny path-pattern router; patterns double as the keys of the call statistics.
import type { IncomingMessage } from "node:http";
import type { Reply } from "./http-util";

export interface RouteContext {
  req: IncomingMessage;
  params: Record<string, string>;
  query: URLSearchParams;
}

export type Handler = (ctx: RouteContext) => Reply | Promise<Reply>;

export interface Route {
  method: string;
  pattern: string;
  handler: Handler;
  regex: RegExp;
  names: string[];
}

export type RouteMatch =
  { kind: "match"; route: Route; params: Record<string, string> } | { kind: "wrong-method"; pattern: string; allowed: string[] } | { kind: "none" };

export function route(method: string, pattern: string, handler: Handler): Route {
  const names: string[] = [];
  const source = pattern
    .split("/")
    .map((segment) => {
      if (segment.startsWith(":")) {
        names.push(segment.slice(1));
        return "([^/]+)";
      }
      return segment.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
    })
    .join("/");
  return { method, pattern, handler, regex: new RegExp(`^${source}$`), names };
}

export function findRoute(routes: readonly Route[], method: string, path: string): RouteMatch {
  const allowed: string[] = [];
  let pattern: string | null = null;
  for (const candidate of routes) {
    const match = candidate.regex.exec(path);
    if (!match) continue;
    const params = decodeParams(candidate.names, match.slice(1));
    if (!params) continue;
    if (candidate.method === method) return { kind: "match", route: candidate, params };
    pattern ??= candidate.pattern;
    allowed.push(candidate.method);
  }
  return pattern === null ? { kind: "none" } : { kind: "wrong-method", pattern, allowed };
}

function decodeParams(names: readonly string[], values: readonly (string | undefined)[]): Record<string, string> | null {
  const params: Record<string, string> = {};
  try {
    names.forEach((name, i) => {
      params[name] = decodeURIComponent(values[i] ?? "");
    });
  } catch {
    return null;
  }
  return params;
}
