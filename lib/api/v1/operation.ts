import type { z } from "zod";

import type { ApiScope } from "@/lib/client/auth/permissions";

// One /api/v1 operation as the document describes it and the handler parses it (docs/architecture.md "The API"):
// the route imports its operation and parses with these same schemas, so what is documented is what is checked.

export type V1Method = "GET" | "POST" | "PATCH" | "DELETE";

export interface V1Operation<Q extends z.ZodObject = z.ZodObject, B extends z.ZodType = z.ZodType, D extends z.ZodType = z.ZodType> {
  method: V1Method;
  /** The path under /api/v1 in OpenAPI's form: /requests/{requestId}. */
  path: string;
  operationId: string;
  summary: string;
  description?: string;
  tag: string;
  /** The scope a key needs. */
  scope: ApiScope;
  params?: z.ZodObject;
  query?: Q;
  body?: B;
  success: { status: 200 | 201 | 202; description: string; data: D };
  /** Error statuses beyond the ones every operation may answer (401, 403, 429, 500) and a POST's (400, 409, 422). */
  errors?: readonly number[];
}

export function operation<Q extends z.ZodObject, B extends z.ZodType, D extends z.ZodType>(op: V1Operation<Q, B, D>): V1Operation<Q, B, D> {
  return op;
}

/** Every error status an operation documents. */
export function errorStatuses(op: V1Operation): number[] {
  const statuses = new Set<number>([401, 403, 429, 500, ...(op.errors ?? [])]);
  if (op.method === "POST") [400, 409, 422].forEach((s) => statuses.add(s));
  if (op.query || op.body) statuses.add(422);
  // A body that is not JSON (400), too large (413) or of another type (415).
  if (op.body) [400, 413, 415].forEach((s) => statuses.add(s));
  if (op.params) statuses.add(404);
  return [...statuses].sort((a, b) => a - b);
}
