import { withStaff } from "@/lib/auth/guard";
import { endpointPatchSchema } from "@/lib/client/outbound/schemas";
import { invalidField, notFound } from "@/lib/http/api-error";
import { parseJsonBody } from "@/lib/http/body";
import { ok } from "@/lib/http/envelope";
import { otherMethods } from "@/lib/http/other-methods";
import { changeEndpoint, deleteEndpoint, endpointView } from "@/lib/outbound/manage";

export const dynamic = "force-dynamic";

const MISSING = "No such webhook endpoint. It may have been deleted.";

export const GET = withStaff<{ id: string }>("webhooks.read", async (_request, { db, actor, params }) => {
  const view = await endpointView(db, actor, params.id);
  if (!view) throw notFound(MISSING);
  return ok(view, "OK", 200, { "Cache-Control": "no-store" });
});

export const PATCH = withStaff<{ id: string }>("webhooks.manage", async (request, { db, actor, params }) => {
  const outcome = await changeEndpoint(db, actor, params.id, await parseJsonBody(request, endpointPatchSchema));
  if (outcome.kind === "not_found") throw notFound(MISSING);
  if (outcome.kind === "invalid_url") throw invalidField(outcome.message, "url", outcome.message);
  return ok(outcome.endpoint, "Endpoint saved.");
});

export const DELETE = withStaff<{ id: string }>("webhooks.manage", async (_request, { db, actor, params }) => {
  const outcome = await deleteEndpoint(db, actor, params.id);
  if (outcome.kind === "not_found") throw notFound(MISSING);
  return ok({}, "Endpoint deleted: it receives nothing more.");
});

export const { POST, PUT } = otherMethods("GET", "PATCH", "DELETE");
