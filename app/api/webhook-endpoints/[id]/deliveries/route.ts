import { withStaff } from "@/lib/auth/guard";
import { DELIVERY_STATUSES, type DeliveryStatus } from "@/lib/client/outbound/schemas";
import { notFound } from "@/lib/http/api-error";
import { ok } from "@/lib/http/envelope";
import { otherMethods } from "@/lib/http/other-methods";
import { readDeliveryPage } from "@/lib/outbound/deliveries";
import { endpointView } from "@/lib/outbound/manage";

export const dynamic = "force-dynamic";

/** The endpoint's deliveries, newest first: ?status=pending|delivered|failed&page= (an unusable value reads as its default). */
export const GET = withStaff<{ id: string }>("webhooks.read", async (request, { db, actor, params }) => {
  if (!(await endpointView(db, actor, params.id))) throw notFound("No such webhook endpoint. It may have been deleted.");
  const search = request.nextUrl.searchParams;
  const status = (DELIVERY_STATUSES as readonly string[]).includes(search.get("status") ?? "") ? (search.get("status") as DeliveryStatus) : null;
  const page = Number(search.get("page") ?? "1");
  return ok(await readDeliveryPage(db, params.id, { status, page: Number.isInteger(page) && page >= 1 && page <= 10_000 ? page : 1 }), "OK", 200, {
    "Cache-Control": "no-store",
  });
});

export const { POST, PUT, PATCH, DELETE } = otherMethods("GET");
