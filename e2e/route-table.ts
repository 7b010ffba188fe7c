import type { Role } from "../lib/client/auth/roles";

export interface RouteCase {
  method: "GET" | "POST" | "PATCH" | "PUT" | "DELETE";
  /** The route file's pattern, e.g. /api/staff/[id]. */
  pattern: string;
  /** Roles that get a 2xx; `public` routes answer without a session; `signature` ones need the service's HMAC instead. */
  allowed: readonly Role[] | "public" | "next-auth" | "signature";
  /** The body the handler reads (every reader stops at its cap and answers 413); absent: it reads none. */
  reads?: "json" | "multipart" | "form";
}

/** Every route handler the dashboard has, and who may call it (docs/architecture.md). A route missing here fails the walk. */
export const ROUTE_TABLE: RouteCase[] = [
  { method: "GET", pattern: "/api/health", allowed: "public" },
  { method: "GET", pattern: "/api/auth/[...nextauth]", allowed: "next-auth" },
  { method: "POST", pattern: "/api/auth/[...nextauth]", allowed: "next-auth", reads: "form" },
  { method: "GET", pattern: "/api/balance", allowed: ["admin", "operator", "viewer"] },
  { method: "GET", pattern: "/api/desk", allowed: ["admin", "operator", "viewer"] },
  { method: "GET", pattern: "/api/requests", allowed: ["admin", "operator", "viewer"] },
  { method: "POST", pattern: "/api/requests", allowed: ["admin", "operator"], reads: "json" },
  { method: "GET", pattern: "/api/requests/[requestId]", allowed: ["admin", "operator", "viewer"] },
  { method: "GET", pattern: "/api/live", allowed: ["admin", "operator", "viewer"] },
  { method: "GET", pattern: "/api/staff", allowed: ["admin"] },
  { method: "POST", pattern: "/api/staff", allowed: ["admin"], reads: "json" },
  { method: "PATCH", pattern: "/api/staff/[id]", allowed: ["admin"], reads: "json" },
  { method: "GET", pattern: "/api/payments", allowed: ["admin", "operator", "viewer"] },
  { method: "GET", pattern: "/api/payments/[uuid]", allowed: ["admin", "operator", "viewer"] },
  { method: "GET", pattern: "/api/payments/settled-per-day", allowed: ["admin", "operator", "viewer"] },
  { method: "GET", pattern: "/api/payments/export", allowed: ["admin", "operator"] },
  { method: "GET", pattern: "/api/reports/daily", allowed: ["admin", "operator", "viewer"] },
  { method: "POST", pattern: "/api/payments/[uuid]/verify", allowed: ["admin", "operator"] },
  { method: "GET", pattern: "/api/webhook-events", allowed: ["admin"] },
  { method: "POST", pattern: "/api/webhooks/peer-transfer", allowed: "signature", reads: "json" },
  { method: "GET", pattern: "/api/campaigns", allowed: ["admin", "operator", "viewer"] },
  { method: "POST", pattern: "/api/campaigns", allowed: ["admin", "operator"], reads: "multipart" },
  { method: "GET", pattern: "/api/campaigns/[id]", allowed: ["admin", "operator", "viewer"] },
  { method: "GET", pattern: "/api/campaigns/[id]/rows", allowed: ["admin", "operator", "viewer"] },
  { method: "GET", pattern: "/api/campaigns/[id]/results.csv", allowed: ["admin", "operator", "viewer"] },
  { method: "POST", pattern: "/api/campaigns/[id]/start", allowed: ["admin", "operator"] },
  { method: "POST", pattern: "/api/campaigns/[id]/pause", allowed: ["admin", "operator"] },
  { method: "POST", pattern: "/api/campaigns/[id]/resume", allowed: ["admin", "operator"] },
  { method: "POST", pattern: "/api/campaigns/[id]/cancel", allowed: ["admin", "operator"] },
  { method: "POST", pattern: "/api/campaigns/[id]/ask-again", allowed: ["admin", "operator"], reads: "json" },
  { method: "GET", pattern: "/api/payers", allowed: ["admin", "operator", "viewer"] },
  { method: "GET", pattern: "/api/payers/[tag]", allowed: ["admin", "operator", "viewer"] },
  { method: "PATCH", pattern: "/api/payers/[tag]", allowed: ["admin", "operator"], reads: "json" },
  { method: "GET", pattern: "/api/plans", allowed: ["admin", "operator", "viewer"] },
  { method: "POST", pattern: "/api/plans", allowed: ["admin", "operator"], reads: "multipart" },
  { method: "GET", pattern: "/api/plans/[id]", allowed: ["admin", "operator", "viewer"] },
  { method: "PATCH", pattern: "/api/plans/[id]", allowed: ["admin", "operator"], reads: "json" },
  { method: "GET", pattern: "/api/plans/[id]/board", allowed: ["admin", "operator", "viewer"] },
  { method: "POST", pattern: "/api/plans/[id]/run", allowed: ["admin", "operator"], reads: "json" },
  { method: "GET", pattern: "/api/exceptions", allowed: ["admin", "operator", "viewer"] },
  { method: "GET", pattern: "/api/exceptions/count", allowed: ["admin", "operator", "viewer"] },
  { method: "GET", pattern: "/api/exceptions/[id]", allowed: ["admin", "operator", "viewer"] },
  { method: "POST", pattern: "/api/exceptions/[id]/resolve", allowed: ["admin", "operator"], reads: "json" },
  { method: "POST", pattern: "/api/exceptions/[id]/reopen", allowed: ["admin", "operator"] },
  { method: "GET", pattern: "/api/me", allowed: ["admin", "operator", "viewer"] },
  { method: "POST", pattern: "/api/me/password", allowed: ["admin", "operator", "viewer"], reads: "json" },
  { method: "POST", pattern: "/api/me/2fa/setup", allowed: ["admin", "operator", "viewer"], reads: "json" },
  { method: "POST", pattern: "/api/me/2fa/enable", allowed: ["admin", "operator", "viewer"], reads: "json" },
  { method: "POST", pattern: "/api/me/2fa/disable", allowed: ["admin", "operator", "viewer"], reads: "json" },
  { method: "POST", pattern: "/api/me/2fa/recovery-codes", allowed: ["admin", "operator", "viewer"], reads: "json" },
  { method: "GET", pattern: "/api/me/sessions", allowed: ["admin", "operator", "viewer"] },
  { method: "DELETE", pattern: "/api/me/sessions/[id]", allowed: ["admin", "operator", "viewer"] },
  { method: "POST", pattern: "/api/me/sessions/revoke-others", allowed: ["admin", "operator", "viewer"] },
  { method: "GET", pattern: "/api/me/notifications", allowed: ["admin", "operator", "viewer"] },
  { method: "PUT", pattern: "/api/me/notifications", allowed: ["admin", "operator", "viewer"], reads: "json" },
  { method: "GET", pattern: "/api/notifications", allowed: ["admin", "operator", "viewer"] },
  { method: "POST", pattern: "/api/notifications/read", allowed: ["admin", "operator", "viewer"], reads: "json" },
  { method: "POST", pattern: "/api/staff/[id]/reset-2fa", allowed: ["admin"] },
  { method: "GET", pattern: "/api/settings", allowed: ["admin"] },
  { method: "PATCH", pattern: "/api/settings", allowed: ["admin"], reads: "json" },
];
