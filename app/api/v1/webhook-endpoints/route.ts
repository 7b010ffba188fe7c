import { createWebhookEndpoint, listWebhookEndpoints } from "@/lib/api/v1/ops/webhooks";
import { parseBody } from "@/lib/api/v1/parse";
import { withApiKey } from "@/lib/api-keys/guard";
import { ok } from "@/lib/http/envelope";
import { otherMethods } from "@/lib/http/other-methods";
import { createdEndpoint, endpointPage } from "@/lib/http/answers/outbound";
import { createEndpoint, listEndpointViews } from "@/lib/outbound/manage";

export const dynamic = "force-dynamic";

export const GET = withApiKey(listWebhookEndpoints, async (_request, { db, actor }) => ok(endpointPage(await listEndpointViews(db, actor))));

/** Its signing secret is in this answer only (docs/architecture.md "Outgoing webhooks"). */
export const POST = withApiKey(createWebhookEndpoint, async (request, { db, actor }) => {
  const endpoint = createdEndpoint(await createEndpoint(db, actor, await parseBody(createWebhookEndpoint, request)));
  return ok(endpoint, "Endpoint added. Keep its signing secret now: it is answered this once.", 201);
});

export const { PUT, PATCH, DELETE } = otherMethods("GET", "POST");
