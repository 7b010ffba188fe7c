import { withStaff } from "@/lib/auth/guard";
import { endpointPatchSchema } from "@/lib/client/outbound/schemas";
import { notFound } from "@/lib/http/api-error";
import { parseJsonBody } from "@/lib/http/body";
import { ok } from "@/lib/http/envelope";
import { otherMethods } from "@/lib/http/other-methods";
import { changedEndpoint, deletedEndpoint, ENDPOINT_MISSING } from "@/lib/http/answers/outbound";
import { changeEndpoint, deleteEndpoint, endpointView } from "@/lib/outbound/manage";

export const dynamic = "force-dynamic";

export const GET = withStaff<{ id: string }>("webhooks.read", async (_request, { db, actor, params }) => {
  const view = await endpointView(db, actor, params.id);
  if (!view) throw notFound(ENDPOINT_MISSING);
  return ok(view, "OK", 200, { "Cache-Control": "no-store" });
});

export const PATCH = withStaff<{ id: string }>("webhooks.manage", async (request, { db, actor, params }) => {
  return ok(changedEndpoint(await changeEndpoint(db, actor, params.id, await parseJsonBody(request, endpointPatchSchema))), "Endpoint saved.");
});

export const DELETE = withStaff<{ id: string }>("webhooks.manage", async (_request, { db, actor, params }) => {
  deletedEndpoint(await deleteEndpoint(db, actor, params.id));
  return ok({}, "Endpoint deleted: it receives nothing more.");
});

export const { POST, PUT } = otherMethods("GET", "PATCH", "DELETE");
