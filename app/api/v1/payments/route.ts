import { listPayments } from "@/lib/api/v1/ops/reads";
import { parseQuery } from "@/lib/api/v1/parse";
import { viewRoleOf } from "@/lib/actors/actor";
import { withApiKey } from "@/lib/api-keys/guard";
import { getConfig } from "@/lib/config";
import { ok } from "@/lib/http/envelope";
import { otherMethods } from "@/lib/http/other-methods";
import { readPaymentPage } from "@/lib/payments/query";

export const dynamic = "force-dynamic";

export const GET = withApiKey(listPayments, async (request, { db, actor }) => {
  const { page, pageSize, ...filter } = parseQuery(listPayments, request);
  return ok(await readPaymentPage(db, { ...filter, page }, viewRoleOf(actor), getConfig().timeZone, pageSize));
});

export const { POST, PUT, PATCH, DELETE } = otherMethods("GET");
