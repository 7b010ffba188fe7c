import { withStaff } from "@/lib/auth/guard";
import { ADMINS } from "@/lib/auth/roles";
import { ok } from "@/lib/http/envelope";
import { pageParam } from "@/lib/http/page-param";
import { DELIVERY_PAGE_SIZE, listDeliveries } from "@/lib/payments/query";
import { otherMethods } from "@/lib/http/other-methods";

export const dynamic = "force-dynamic";

export const GET = withStaff(ADMINS, async (request, { db }) => {
  const page = pageParam(request.nextUrl.searchParams.get("page"));
  const { items, total } = await listDeliveries(db, page);
  return ok({ items, page, pageSize: DELIVERY_PAGE_SIZE, total }, "OK", 200, { "Cache-Control": "no-store" });
});

export const { POST, PUT, PATCH, DELETE } = otherMethods("GET");
