import { listCampaignRows } from "@/lib/api/v1/ops/campaigns";
import { parseQuery } from "@/lib/api/v1/parse";
import { withApiKey } from "@/lib/api-keys/guard";
import { readCampaignRows } from "@/lib/campaigns/queries";
import { findCampaign } from "@/lib/campaigns/repo";
import { notFound } from "@/lib/http/api-error";
import { ok } from "@/lib/http/envelope";
import { otherMethods } from "@/lib/http/other-methods";

export const dynamic = "force-dynamic";

export const GET = withApiKey<{ id: string }>(listCampaignRows, async (request, { db, params }) => {
  if (!(await findCampaign(db, params.id))) throw notFound("No such campaign. Check the id, or find it in the list of campaigns.");
  const { page, pageSize, status } = parseQuery(listCampaignRows, request);
  return ok(await readCampaignRows(db, params.id, { page, status }, pageSize));
});

export const { POST, PUT, PATCH, DELETE } = otherMethods("GET");
