import { withStaff } from "@/lib/auth/guard";
import { ok } from "@/lib/http/envelope";
import { pageParam } from "@/lib/client/http/page-param";
import { DELIVERY_PAGE_SIZE, deliveryFilterParam, listDeliveries } from "@/lib/webhooks/log-queries";
import { otherMethods } from "@/lib/http/other-methods";

export const dynamic = "force-dynamic";

// `total` is counted up to DELIVERY_COUNT_CAP (totalCapped says when there are more), and `page` is
// the page served (`?outcome=` filters as the delivery log page does): past the last pageable one it is capped, so no request's cost grows with the log.
export const GET = withStaff("deliveries.read", async (request, { db }) => {
  const params = request.nextUrl.searchParams;
  const { items, page, total, totalCapped } = await listDeliveries(db, pageParam(params.get("page")), deliveryFilterParam(params.get("outcome")));
  return ok({ items, page, pageSize: DELIVERY_PAGE_SIZE, total, totalCapped }, "OK", 200, { "Cache-Control": "no-store" });
});

export const { POST, PUT, PATCH, DELETE } = otherMethods("GET");
