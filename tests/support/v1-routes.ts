// The /api/v1 route files and the operations they serve: read from app/api/v1, so a suite can call every documented
// operation's handler and compare the files with the document.
import { readdirSync, statSync } from "node:fs";
import path from "node:path";

import type { V1Method, V1Operation } from "@/lib/api/v1/operation";

import { ROOT } from "./paths";

const V1_DIR = path.join(ROOT, "app/api/v1");
const METHODS: V1Method[] = ["GET", "POST", "PATCH", "DELETE"];

type Handler = (request: Request, route: { params: Promise<Record<string, string>> }) => Promise<Response>;

function routeFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return routeFiles(full);
    return name === "route.ts" ? [full] : [];
  });
}

/** The OpenAPI path of a route file: app/api/v1/requests/[requestId]/route.ts → /requests/{requestId}. */
function openApiPath(file: string): string {
  const rel = path.relative(V1_DIR, path.dirname(file)).split(path.sep).join("/");
  return `/${rel}`.replace(/\[([^\]]+)\]/g, "{$1}").replace(/\/$/, "") || "/";
}

export interface V1Route {
  method: V1Method;
  path: string;
  handler: Handler;
}

/**
 * Every method a v1 route file answers with an operation: the exports made by withApiKey (named `guarded`), not the
 * 405s of otherMethods. The document itself (openapi.json) is left out: it is no operation.
 */
export async function v1Routes(): Promise<V1Route[]> {
  const routes: V1Route[] = [];
  for (const file of routeFiles(V1_DIR)) {
    const mod = (await import(file)) as Record<string, unknown>;
    for (const method of METHODS) {
      const handler = mod[method];
      if (typeof handler === "function" && handler.name === "guarded") routes.push({ method, path: openApiPath(file), handler: handler as Handler });
    }
  }
  return routes;
}

/** The handler serving `op`, or throws. */
export function handlerFor(routes: V1Route[], op: V1Operation): Handler {
  const route = routes.find((r) => r.method === op.method && r.path === op.path);
  if (!route) throw new Error(`no route serves ${op.method} ${op.path}`);
  return route.handler;
}
