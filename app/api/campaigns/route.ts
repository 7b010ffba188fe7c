import { writeAudit } from "@/lib/audit/write";
import { withStaff } from "@/lib/auth/guard";
import { ANY_STAFF, SENDERS } from "@/lib/auth/roles";
import { parseCampaignCsv, MAX_CAMPAIGN_BYTES } from "@/lib/campaigns/parse";
import { getCampaignView, listCampaignViews } from "@/lib/campaigns/queries";
import { createCampaign } from "@/lib/campaigns/repo";
import { campaignNameSchema } from "@/lib/campaigns/schemas";
import { CAMPAIGN_PAGE_SIZE } from "@/lib/campaigns/view";
import { badRequest, tooLarge, unprocessable, unsupportedMediaType, ApiError } from "@/lib/http/api-error";
import { ok } from "@/lib/http/envelope";
import { otherMethods } from "@/lib/http/other-methods";
import { pageParam } from "@/lib/http/page-param";

export const dynamic = "force-dynamic";

// The multipart envelope around a 2 MiB file: refused before it is read when plainly larger.
const MAX_UPLOAD_BYTES = MAX_CAMPAIGN_BYTES + 64 * 1024;

export const GET = withStaff(ANY_STAFF, async (request, { db }) => {
  const page = pageParam(request.nextUrl.searchParams.get("page"));
  const { items, total } = await listCampaignViews(db, page);
  return ok({ items, page, pageSize: CAMPAIGN_PAGE_SIZE, total }, "OK", 200, { "Cache-Control": "no-store" });
});

/** A CSV upload makes a draft campaign with every row checked (docs/architecture.md, "A campaign"). */
export const POST = withStaff(SENDERS, async (request, { db, staff, ip }) => {
  if (!/^multipart\/form-data\b/i.test(request.headers.get("content-type") ?? "")) {
    throw unsupportedMediaType("Send the campaign as multipart/form-data with a file field (the CSV) and a name field.");
  }
  const declared = Number(request.headers.get("content-length") ?? "0");
  if (declared > MAX_UPLOAD_BYTES) throw tooLarge("The file is larger than 2 MiB. Split it into smaller files.");
  let form: FormData;
  try {
    form = await request.formData();
  } catch {
    throw badRequest("The upload could not be read as a form. Choose the file again and upload it.");
  }
  const name = campaignNameSchema.safeParse(form.get("name") ?? "");
  if (!name.success) throw unprocessable("Check the campaign's name.", { fieldErrors: { name: name.error.issues.map((i) => i.message) }, formErrors: [] });
  const file = form.get("file");
  if (!(file instanceof Blob)) throw unprocessable("Choose a CSV file to upload.", { fieldErrors: { file: ["Choose a CSV file to upload."] }, formErrors: [] });
  if (file.size > MAX_CAMPAIGN_BYTES) throw tooLarge(`The file is larger than 2 MiB (${file.size} bytes). Split it into smaller files.`);
  const parsed = parseCampaignCsv(new Uint8Array(await file.arrayBuffer()));
  if (!parsed.ok) throw new ApiError(parsed.status, parsed.message);
  const id = await createCampaign(db, name.data, parsed.rows, staff.id);
  const view = await getCampaignView(db, id);
  await writeAudit(db, {
    action: "campaign.uploaded",
    actor: staff,
    target: id,
    detail: { name: name.data, rows: parsed.rows.length, invalid: view?.counts.invalid ?? 0 },
    ip,
  });
  return ok(view, "Campaign drafted: check the preview, then start it", 201);
});

export const { PUT, PATCH, DELETE } = otherMethods("GET", "POST");
