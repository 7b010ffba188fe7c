// The dashboard's pages and routes as the tests walk them: every app/**/page.tsx (so a new page cannot be
// missed, as e2e/api-roles.spec.ts does for route files), and each pattern made concrete with a real id of
// the kind its path parameter holds. Relative imports only: e2e loads this too.
import { readdirSync } from "node:fs";
import path from "node:path";

import { ROOT } from "./paths";

/** The records a path parameter can name (a payer by their tag). */
export type IdKind =
  | "request"
  | "payment"
  | "staff"
  | "campaign"
  | "session"
  | "payer"
  | "plan"
  | "exception"
  | "endpoint"
  | "delivery"
  | "apiKey"
  | "payPage"
  | "paySlug"
  | "payToken";

/** A real id of each kind, made by the test's own setup. */
export type RealIds = Record<IdKind, string>;

/**
 * The name lib/http/route-params.ts's table gives each kind's form (a request's page names its segment [id],
 * but holds a service request id): tests that can load server code check each seeded id against it.
 */
export const FORM_OF_KIND: Record<IdKind, string> = {
  request: "requestId",
  payment: "uuid",
  staff: "id",
  campaign: "id",
  session: "id",
  payer: "tag",
  plan: "id",
  exception: "id",
  endpoint: "id",
  delivery: "id",
  apiKey: "id",
  payPage: "id",
  paySlug: "slug",
  payToken: "token",
};

/** The collection a dynamic segment follows says what it holds: /api/campaigns/[id] a campaign, /requests/[id] a request. */
const KIND_AFTER: Record<string, IdKind> = {
  requests: "request",
  payments: "payment",
  staff: "staff",
  campaigns: "campaign",
  sessions: "session",
  payers: "payer",
  plans: "plan",
  exceptions: "exception",
  "webhook-endpoints": "endpoint",
  "webhook-deliveries": "delivery",
  "api-keys": "apiKey",
  "pay-pages": "payPage",
  // /pay/[slug] and /api/public/pay/[slug]: a pay page's public address; /pay/[slug]/s/[token]: a payer's status link.
  pay: "paySlug",
  s: "payToken",
};

function pageFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return pageFiles(full);
    return entry.name === "page.tsx" ? [full] : [];
  });
}

/** Every page under app/ as its URL pattern (route groups such as "(dashboard)" dropped), sorted: "/", "/campaigns/[id]", … */
export function pagePatterns(): string[] {
  const app = path.join(ROOT, "app");
  return pageFiles(app)
    .map((file) => {
      const segments = path
        .relative(app, path.dirname(file))
        .split(path.sep)
        .filter((s) => s !== "" && !/^\(.*\)$/.test(s));
      return `/${segments.join("/")}`;
    })
    .sort();
}

/** The dynamic segments of a pattern ("[id]", "[...nextauth]"), in order. */
export function dynamicSegments(pattern: string): string[] {
  return pattern.split("/").filter((s) => /^\[.+\]$/.test(s));
}

/** The kind of id the dynamic segment at `index` of the pattern's segments holds; fails for one it cannot tell. */
export function idKindAt(pattern: string, index: number): IdKind {
  const segments = pattern.split("/");
  const kind = KIND_AFTER[segments[index - 1] ?? ""];
  if (!kind) throw new Error(`${pattern}: no id kind known for ${segments[index]} (add its collection to KIND_AFTER in tests/support/app-paths.ts)`);
  return kind;
}

/**
 * The pattern with each dynamic segment replaced by the real id of its kind; a catch-all ("[...nextauth]") by
 * `catchAll`, which must then be given. Fails on a segment whose kind it cannot tell, so a new route is not
 * quietly walked with an id of the wrong kind.
 */
export function concretePath(pattern: string, ids: RealIds, catchAll?: string): string {
  return pattern
    .split("/")
    .map((segment, index) => {
      if (!/^\[.+\]$/.test(segment)) return segment;
      if (segment.startsWith("[...")) {
        if (catchAll === undefined) throw new Error(`${pattern}: a catch-all segment needs a value`);
        return catchAll;
      }
      const id = ids[idKindAt(pattern, index)];
      if (!id) throw new Error(`${pattern}: no real ${idKindAt(pattern, index)} id was made`);
      return encodeURIComponent(id);
    })
    .join("/");
}
