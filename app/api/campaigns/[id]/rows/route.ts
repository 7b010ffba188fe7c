import { withStaff } from "@/lib/auth/guard";
import { findCampaign } from "@/lib/campaigns/repo";
import { readCampaignRows } from "@/lib/campaigns/queries";
import { campaignRowsQuerySchema } from "@/lib/client/campaigns/schemas";
import { notFound } from "@/lib/http/api-error";
import { ok } from "@/lib/http/envelope";
import { otherMethods } from "@/lib/http/other-methods";

export const dynamic = "force-dynamic";

export const GET = withStaff<{ id: string }>("campaigns.read", async (request, { db, params }) => {
  if (!(await findCampaign(db, params.id))) throw notFound("No such campaign.");
  const search = request.nextUrl.searchParams;
  const query = campaignRowsQuerySchema.parse({ status: search.get("status") || undefined, page: search.get("page") ?? undefined });
  return ok(await readCampaignRows(db, params.id, query), "OK", 200, { "Cache-Control": "no-store" });
});

export const { POST, PUT, PATCH, DELETE } = otherMethods("GET");
