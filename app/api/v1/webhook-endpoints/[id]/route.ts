import { deleteWebhookEndpoint, getWebhookEndpoint, updateWebhookEndpoint } from "@/lib/api/v1/ops/webhooks";
import { parseBody } from "@/lib/api/v1/parse";
import { withApiKey } from "@/lib/api-keys/guard";
import { notFound } from "@/lib/http/api-error";
import { ok } from "@/lib/http/envelope";
import { otherMethods } from "@/lib/http/other-methods";
import { changedEndpoint, deletedEndpoint, ENDPOINT_MISSING } from "@/lib/http/answers/outbound";
import { changeEndpoint, deleteEndpoint, endpointView } from "@/lib/outbound/manage";

export const dynamic = "force-dynamic";

export const GET = withApiKey<{ id: string }>(getWebhookEndpoint, async (_request, { db, actor, params }) => {
  const view = await endpointView(db, actor, params.id);
  if (!view) throw notFound(ENDPOINT_MISSING);
  return ok(view);
});

export const PATCH = withApiKey<{ id: string }>(updateWebhookEndpoint, async (request, { db, actor, params }) => {
  return ok(changedEndpoint(await changeEndpoint(db, actor, params.id, await parseBody(updateWebhookEndpoint, request))), "Endpoint saved.");
});

export const DELETE = withApiKey<{ id: string }>(deleteWebhookEndpoint, async (_request, { db, actor, params }) => {
  deletedEndpoint(await deleteEndpoint(db, actor, params.id));
  return ok({}, "Endpoint deleted: it receives nothing more.");
});

export const { POST, PUT } = otherMethods("GET", "PATCH", "DELETE");
