import { getCampaign } from "@/lib/api/v1/ops/campaigns";
import { withApiKey } from "@/lib/api-keys/guard";
import { getCampaignView } from "@/lib/campaigns/queries";
import { notFound } from "@/lib/http/api-error";
import { ok } from "@/lib/http/envelope";
import { otherMethods } from "@/lib/http/other-methods";

export const dynamic = "force-dynamic";

export const GET = withApiKey<{ id: string }>(getCampaign, async (_request, { db, params }) => {
  const view = await getCampaignView(db, params.id);
  if (!view) throw notFound("No such campaign. Check the id, or find it in the list of campaigns.");
  return ok(view);
});

export const { POST, PUT, PATCH, DELETE } = otherMethods("GET");
