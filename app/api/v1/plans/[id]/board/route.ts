import { getPlanBoard } from "@/lib/api/v1/ops/plans";
import { parseQuery } from "@/lib/api/v1/parse";
import { withApiKey } from "@/lib/api-keys/guard";
import { notFound } from "@/lib/http/api-error";
import { ok } from "@/lib/http/envelope";
import { otherMethods } from "@/lib/http/other-methods";
import { readBoard } from "@/lib/plans/queries";
import { findPlan } from "@/lib/plans/repo";

export const dynamic = "force-dynamic";

/** The dues board (docs/architecture.md "Plans"): the dashboard's read, one page of members at a time. */
export const GET = withApiKey<{ id: string }>(getPlanBoard, async (request, { db, params }) => {
  const plan = await findPlan(db, params.id);
  if (!plan) throw notFound("No such plan. Check the id, or find it in the list of plans.");
  const { periods, owing, page, pageSize } = parseQuery(getPlanBoard, request);
  return ok(await readBoard(db, plan, periods, owing, new Date(), { page, pageSize }));
});

export const { POST, PUT, PATCH, DELETE } = otherMethods("GET");
