import { withStaff } from "@/lib/auth/guard";
import { endpointCreateSchema } from "@/lib/client/outbound/schemas";
import { parseJsonBody } from "@/lib/http/body";
import { ok } from "@/lib/http/envelope";
import { otherMethods } from "@/lib/http/other-methods";
import { createdEndpoint, endpointPage } from "@/lib/http/answers/outbound";
import { createEndpoint, listEndpointViews } from "@/lib/outbound/manage";

export const dynamic = "force-dynamic";

/** The business's webhook endpoints (docs/architecture.md "Outgoing webhooks"). */
export const GET = withStaff("webhooks.read", async (_request, { db, actor }) => {
  return ok(endpointPage(await listEndpointViews(db, actor)), "OK", 200, { "Cache-Control": "no-store" });
});

/** Adds one; its signing secret is in this answer only (later: an audited reveal). */
export const POST = withStaff("webhooks.manage", async (request, { db, actor }) => {
  const endpoint = createdEndpoint(await createEndpoint(db, actor, await parseJsonBody(request, endpointCreateSchema)));
  return ok(endpoint, "Endpoint added. Copy its signing secret now: it is shown this once.", 201);
});

export const { PUT, PATCH, DELETE } = otherMethods("GET", "POST");
