import "server-only";

import type { z } from "zod";

import { jsonBodyMessage, parseFields, readJsonBody } from "@/lib/http/body";

import type { V1Operation } from "./operation";
import { queryObject } from "./wire";

// An operation's inputs parsed with its own documented schemas (a 422 with field errors otherwise).

export function parseQuery<Q extends z.ZodObject>(op: V1Operation<Q>, request: Request): z.output<Q> {
  if (!op.query) throw new Error(`${op.operationId} documents no query`);
  return parseFields(op.query, queryObject(new URL(request.url).searchParams));
}

export async function parseBody<B extends z.ZodType>(op: V1Operation<z.ZodObject, B>, request: Request, maxBytes?: number): Promise<z.output<B>> {
  if (!op.body) throw new Error(`${op.operationId} documents no body`);
  return parseFields(op.body, await readJsonBody(request, maxBytes), jsonBodyMessage);
}
