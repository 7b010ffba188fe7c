import { withStaff } from "@/lib/auth/guard";
import { endpointCreateSchema, MAX_ENDPOINTS } from "@/lib/client/outbound/schemas";
import { conflict, invalidField } from "@/lib/http/api-error";
import { parseJsonBody } from "@/lib/http/body";
import { ok } from "@/lib/http/envelope";
import { otherMethods } from "@/lib/http/other-methods";
import { createEndpoint, listEndpointViews } from "@/lib/outbound/manage";

export const dynamic = "force-dynamic";

/** The business's webhook endpoints (docs/architecture.md "Outgoing webhooks"). */
export const GET = withStaff("webhooks.read", async (_request, { db, actor }) => {
  const items = await listEndpointViews(db, actor);
  return ok({ items, page: 1, pageSize: items.length, total: items.length }, "OK", 200, { "Cache-Control": "no-store" });
});

/** Adds one; its signing secret is in this answer only (later: an audited reveal). */
export const POST = withStaff("webhooks.manage", async (request, { db, actor }) => {
  const outcome = await createEndpoint(db, actor, await parseJsonBody(request, endpointCreateSchema));
  if (outcome.kind === "invalid_url") throw invalidField(outcome.message, "url", outcome.message);
  if (outcome.kind === "limit") throw conflict(`A team has at most ${MAX_ENDPOINTS} webhook endpoints. Delete one you no longer use first.`);
  return ok({ ...outcome.endpoint, secret: outcome.secret }, "Endpoint added. Copy its signing secret now: it is shown this once.", 201);
});

export const { PUT, PATCH, DELETE } = otherMethods("GET", "POST");
