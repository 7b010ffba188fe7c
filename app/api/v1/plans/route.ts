import { listPlans } from "@/lib/api/v1/ops/plans";
import { parseQuery } from "@/lib/api/v1/parse";
import { withApiKey } from "@/lib/api-keys/guard";
import { ok } from "@/lib/http/envelope";
import { otherMethods } from "@/lib/http/other-methods";
import { readPlanPage } from "@/lib/plans/queries";

export const dynamic = "force-dynamic";

export const GET = withApiKey(listPlans, async (request, { db }) => {
  const { page, pageSize } = parseQuery(listPlans, request);
  return ok(await readPlanPage(db, page, new Date(), pageSize));
});

export const { POST, PUT, PATCH, DELETE } = otherMethods("GET");
