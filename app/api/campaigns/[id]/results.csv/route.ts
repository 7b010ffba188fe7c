import { withStaff } from "@/lib/auth/guard";
import { campaignResultsCsv } from "@/lib/campaigns/results-csv";
import { findCampaign } from "@/lib/campaigns/repo";
import { campaignRowsQuerySchema } from "@/lib/client/campaigns/schemas";
import { getConfig } from "@/lib/config";
import { notFound } from "@/lib/http/api-error";
import { csvResponse } from "@/lib/http/csv-response";
import { otherMethods } from "@/lib/http/other-methods";

export const dynamic = "force-dynamic";

// The download follows the rows filter of the page it came from (?status=…, the same schema as /rows).
export const GET = withStaff<{ id: string }>("campaigns.read", async (request, { db, params }) => {
  const campaign = await findCampaign(db, params.id);
  if (!campaign) throw notFound("No such campaign.");
  const { status } = campaignRowsQuerySchema.parse(Object.fromEntries(request.nextUrl.searchParams));
  return csvResponse(
    await campaignResultsCsv(db, campaign.id, getConfig().timeZone, status),
    `campaign-${campaign.id.slice(0, 8)}-${status ?? "all"}-results.csv`,
  );
});

export const { POST, PUT, PATCH, DELETE } = otherMethods("GET");
