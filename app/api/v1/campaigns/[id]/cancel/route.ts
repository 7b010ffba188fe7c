import { cancelCampaign } from "@/lib/api/v1/ops/campaigns";
import { otherMethods } from "@/lib/http/other-methods";

import { campaignAction } from "../campaign-action";

export const dynamic = "force-dynamic";

export const POST = campaignAction(cancelCampaign, "cancel");

export const { GET, PUT, PATCH, DELETE } = otherMethods("POST");
