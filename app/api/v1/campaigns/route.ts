import { createCampaign, CAMPAIGN_BODY_BYTES, listCampaigns } from "@/lib/api/v1/ops/campaigns";
import { parseBody, parseQuery } from "@/lib/api/v1/parse";
import { withApiKey } from "@/lib/api-keys/guard";
import { applyCampaignAction } from "@/lib/campaigns/actions";
import { draftedCampaign, movedCampaign, presentCampaign } from "@/lib/http/answers/campaigns";
import { draftCampaign } from "@/lib/campaigns/draft";
import { checkCampaignRows } from "@/lib/campaigns/parse";
import { campaignPace, readCampaignPage } from "@/lib/campaigns/queries";
import { TRANSITIONS } from "@/lib/client/campaigns/transitions";
import { ApiError, isApiError } from "@/lib/http/api-error";
import { ok } from "@/lib/http/envelope";
import { otherMethods } from "@/lib/http/other-methods";

export const dynamic = "force-dynamic";

export const GET = withApiKey(listCampaigns, async (request, { db }) => {
  const { page, pageSize } = parseQuery(listCampaigns, request);
  return ok(await readCampaignPage(db, page, campaignPace(), pageSize));
});

/** The rows checked as an uploaded file's, drafted under the key's person, and started when asked (docs/architecture.md "Campaigns"). */
export const POST = withApiKey(
  createCampaign,
  async (request, { db, actor }) => {
    const body = await parseBody(createCampaign, request, CAMPAIGN_BODY_BYTES);
    const checked = checkCampaignRows(body.rows);
    if (!checked.ok) throw new ApiError(checked.status, checked.message);
    const drafted = draftedCampaign(await draftCampaign(db, actor, { name: body.name, rows: checked.rows }), "send these rows again");
    if (!body.start) return ok(presentCampaign(drafted.campaign), "Campaign drafted: start it with POST /campaigns/{id}/start.", 201);
    // The draft stands whatever the start answers, so a refused start still answers the draft (a retry of the same
    // Idempotency-Key would otherwise draft the rows twice).
    try {
      const started = movedCampaign(await applyCampaignAction(db, actor, drafted.id, "start"), "start");
      return ok(presentCampaign(started), TRANSITIONS.start.done, 201);
    } catch (error) {
      if (!isApiError(error)) throw error;
      return ok(presentCampaign(drafted.campaign), `Campaign drafted, not started: ${error.message} Start it with POST /campaigns/{id}/start.`, 201);
    }
  },
  { maxBodyBytes: CAMPAIGN_BODY_BYTES },
);

export const { PUT, PATCH, DELETE } = otherMethods("GET", "POST");
