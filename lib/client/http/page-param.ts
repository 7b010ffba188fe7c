import { z } from "zod";

/** A 1-based page number from a query string; anything unusable reads as page 1. */
export const pageParamSchema = z.coerce.number().int().min(1).max(100_000).catch(1);

export function pageParam(value: string | string[] | null | undefined): number {
  return pageParamSchema.parse((Array.isArray(value) ? value[0] : value) || 1);
}

/** One page of a list, as every list route answers it and every list query holds it. */
export interface Page<T> {
  items: T[];
  page: number;
  pageSize: number;
  total: number;
}
