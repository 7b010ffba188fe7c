import "server-only";

import type { Page } from "@/lib/client/http/page-param";
import { MAX_ENDPOINTS, type EndpointView } from "@/lib/client/outbound/schemas";
import { conflict, invalidField, notFound } from "@/lib/http/api-error";

import type { changeEndpoint, createEndpoint, deleteEndpoint } from "@/lib/outbound/manage";

// The webhook endpoint use cases' outcomes as answers, whichever door asked (/api/webhook-endpoints and
// /api/v1/webhook-endpoints): one mapping of refusals to statuses and codes (docs/architecture.md "Error codes").

export const ENDPOINT_MISSING = "No such webhook endpoint. It may have been deleted.";

/** Every endpoint as one page of a list (there are at most MAX_ENDPOINTS). */
export function endpointPage(items: EndpointView[]): Page<EndpointView> {
  return { items, page: 1, pageSize: items.length, total: items.length };
}

/** The endpoint made, with its signing secret (answered this once); else 422 on `url` or 409 at the limit. */
export function createdEndpoint(outcome: Awaited<ReturnType<typeof createEndpoint>>): EndpointView & { secret: string } {
  if (outcome.kind === "invalid_url") throw invalidField(outcome.message, "url", outcome.message);
  if (outcome.kind === "limit") throw conflict(`A team has at most ${MAX_ENDPOINTS} webhook endpoints. Delete one you no longer use first.`);
  return { ...outcome.endpoint, secret: outcome.secret };
}

/** The endpoint after the change; else 404 or 422 on `url`. */
export function changedEndpoint(outcome: Awaited<ReturnType<typeof changeEndpoint>>): EndpointView {
  if (outcome.kind === "not_found") throw notFound(ENDPOINT_MISSING);
  if (outcome.kind === "invalid_url") throw invalidField(outcome.message, "url", outcome.message);
  return outcome.endpoint;
}

/** Nothing, once deleted; else 404. */
export function deletedEndpoint(outcome: Awaited<ReturnType<typeof deleteEndpoint>>): void {
  if (outcome.kind === "not_found") throw notFound(ENDPOINT_MISSING);
}
