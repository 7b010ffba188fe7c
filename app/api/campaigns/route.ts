import { withStaff } from "@/lib/auth/guard";
import { DRAFTED, draftedCampaign } from "@/lib/http/answers/campaigns";
import { draftCampaign } from "@/lib/campaigns/draft";
import { parseCampaignCsv } from "@/lib/campaigns/parse";
import { readCampaignPage } from "@/lib/campaigns/queries";
import { campaignNameSchema, MAX_CAMPAIGN_BYTES } from "@/lib/client/campaigns/schemas";
import { tooLarge, unprocessable, ApiError } from "@/lib/http/api-error";
import { ok } from "@/lib/http/envelope";
import { otherMethods } from "@/lib/http/other-methods";
import { pageParam } from "@/lib/client/http/page-param";
import { readMultipart } from "@/lib/http/multipart";

export const dynamic = "force-dynamic";

// The multipart envelope around a 2 MiB file. The body is read only this far (a chunked body too) before
// it is parsed: a larger one is refused without being held in memory.
const MAX_UPLOAD_BYTES = MAX_CAMPAIGN_BYTES + 64 * 1024;
const TOO_LARGE = "The file is larger than 2 MiB. Split it into smaller files and upload each.";

export const GET = withStaff("campaigns.read", async (request, { db }) => {
  return ok(await readCampaignPage(db, pageParam(request.nextUrl.searchParams.get("page"))), "OK", 200, { "Cache-Control": "no-store" });
});

/** A CSV upload makes a draft campaign with every row checked (docs/architecture.md, "Campaigns"). */
export const POST = withStaff("campaigns.write", async (request, { db, actor }) => {
  const form = await readMultipart(request, MAX_UPLOAD_BYTES, "the campaign", TOO_LARGE);
  const name = campaignNameSchema.safeParse(form.get("name") ?? "");
  if (!name.success) throw unprocessable("Check the campaign's name.", { fieldErrors: { name: name.error.issues.map((i) => i.message) }, formErrors: [] });
  const file = form.get("file");
  if (!(file instanceof Blob)) throw unprocessable("Choose a CSV file to upload.", { fieldErrors: { file: ["Choose a CSV file to upload."] }, formErrors: [] });
  if (file.size > MAX_CAMPAIGN_BYTES) throw tooLarge(`The file is larger than 2 MiB (${file.size} bytes). Split it into smaller files.`);
  const parsed = parseCampaignCsv(new Uint8Array(await file.arrayBuffer()));
  if (!parsed.ok) throw new ApiError(parsed.status, parsed.message);
  const { campaign } = draftedCampaign(await draftCampaign(db, actor, { name: name.data, rows: parsed.rows }));
  return ok(campaign, DRAFTED, 201);
});

export const { PUT, PATCH, DELETE } = otherMethods("GET", "POST");
