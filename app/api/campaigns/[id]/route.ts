import { withStaff } from "@/lib/auth/guard";
import { getCampaignView } from "@/lib/campaigns/queries";
import { notFound } from "@/lib/http/api-error";
import { ok } from "@/lib/http/envelope";
import { otherMethods } from "@/lib/http/other-methods";

export const dynamic = "force-dynamic";

export const GET = withStaff<{ id: string }>("campaigns.read", async (_request, { db, params }) => {
  const view = await getCampaignView(db, params.id);
  if (!view) throw notFound("No such campaign. It may have been made on another dashboard.");
  return ok(view, "OK", 200, { "Cache-Control": "no-store" });
});

export const { POST, PUT, PATCH, DELETE } = otherMethods("GET");
