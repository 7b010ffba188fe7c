import { z } from "zod";
import "zod-openapi";

import { ERROR_CODES } from "@/lib/client/http/error-codes";

// The shapes every /api/v1 answer shares (docs/architecture.md "The API"): the envelope, the error envelope with its
// closed list of codes, a page of a list, and the query parameters lists take. The OpenAPI document is generated
// from these and from each resource's own answer schema, so the document cannot drift from what is parsed.

/** Type-level check that an answer schema describes exactly the view the handler returns. */
export type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
export const assertSame = <T extends true>(value: T): T => value;

export const isoTime = z.string().meta({ description: "A time in UTC, ISO 8601", example: "2026-11-28T09:15:00.000Z" });
export const naira = z.string().meta({ description: "Naira as an exact decimal string with two places", example: "5000.00" });

export function envelope<T extends z.ZodType>(data: T) {
  return z.object({ status: z.literal(true), message: z.string(), data });
}

export const errorEnvelope = z
  .object({
    status: z.literal(false),
    message: z.string().meta({ description: "What happened and what to do, for people" }),
    code: z.enum(ERROR_CODES).meta({ description: "Machine-readable: one of a closed list" }),
    data: z.record(z.string(), z.unknown()).meta({ description: "More about the error: fieldErrors and formErrors for a 422" }),
  })
  .meta({ id: "Error" });

export function page<T extends z.ZodType>(item: T) {
  return z.object({ items: z.array(item), page: z.number().int(), pageSize: z.number().int(), total: z.number().int() });
}

export const MAX_PAGE_SIZE = 100;

/** `page` and `pageSize` as every v1 list takes them: strict, a bad value is a 422 naming it. */
export const pagingQuery = z.object({
  page: z.coerce
    .number({ error: "page is a whole number from 1" })
    .int("page is a whole number from 1")
    .min(1, "page is a whole number from 1")
    .max(100_000)
    .default(1),
  pageSize: z.coerce
    .number({ error: `pageSize is a whole number from 1 to ${MAX_PAGE_SIZE}` })
    .int(`pageSize is a whole number from 1 to ${MAX_PAGE_SIZE}`)
    .min(1, `pageSize is a whole number from 1 to ${MAX_PAGE_SIZE}`)
    .max(MAX_PAGE_SIZE, `pageSize is at most ${MAX_PAGE_SIZE}`)
    .default(25),
});

/** A query string as an object for a schema: the first value of each name, empty values left out. */
export function queryObject(params: URLSearchParams): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of params) if (!(name in out) && value !== "") out[name] = value;
  return out;
}
