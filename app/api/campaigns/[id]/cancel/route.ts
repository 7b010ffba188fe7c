import { campaignAction } from "@/app/api/campaigns/[id]/campaign-action";
import { otherMethods } from "@/lib/http/other-methods";

export const dynamic = "force-dynamic";

export const POST = campaignAction("cancel");

export const { GET, PUT, PATCH, DELETE } = otherMethods("POST");
