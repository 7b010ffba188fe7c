import { withStaff } from "@/lib/auth/guard";
import { parseCampaignCsv } from "@/lib/campaigns/parse";
import { MAX_CAMPAIGN_BYTES } from "@/lib/client/campaigns/schemas";
import { pageParam } from "@/lib/client/http/page-param";
import { describe } from "@/lib/client/plans/schedule";
import { planFieldsSchema } from "@/lib/client/plans/schemas";
import { getConfig } from "@/lib/config";
import { ApiError, tooLarge, unprocessable } from "@/lib/http/api-error";
import { parseFields } from "@/lib/http/body";
import { ok } from "@/lib/http/envelope";
import { readMultipart } from "@/lib/http/multipart";
import { otherMethods } from "@/lib/http/other-methods";
import { makePlan } from "@/lib/plans/make-plan";
import { readPlanPage } from "@/lib/plans/queries";

export const dynamic = "force-dynamic";

const MAX_UPLOAD_BYTES = MAX_CAMPAIGN_BYTES + 64 * 1024;
const TOO_LARGE = "The roster is larger than 2 MiB. Split the members over two plans.";
const FIELDS = Object.keys(planFieldsSchema.shape);

const CHASING_SHAPE = 'Give chasing as JSON: {"afterHours": 24, "times": 2, "include": ["declined", "unanswered"]}';

/** The plan API's `chasing: { afterHours, times, include }`, as one JSON field, read into the form's three chase fields. */
function chasingField(value: FormDataEntryValue | null): Record<string, unknown> {
  if (typeof value !== "string" || value.trim() === "") return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(value);
  } catch {
    parsed = null;
  }
  if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed))
    throw unprocessable(`chasing: ${CHASING_SHAPE}.`, { fieldErrors: { chasing: [CHASING_SHAPE] }, formErrors: [] });
  const { afterHours, times, include } = parsed as Record<string, unknown>;
  return { chaseAfterHours: afterHours, chaseTimes: times, chaseInclude: include ?? [] };
}

export const GET = withStaff("plans.read", async (request, { db }) => {
  return ok(await readPlanPage(db, pageParam(request.nextUrl.searchParams.get("page"))), "OK", 200, { "Cache-Control": "no-store" });
});

/** A plan from its roster CSV and schedule (docs/architecture.md "Plans"); invalid rows are kept as marked members. */
export const POST = withStaff("plans.write", async (request, { db, actor }) => {
  const form = await readMultipart(request, MAX_UPLOAD_BYTES, "the plan", TOO_LARGE);
  const raw: Record<string, unknown> = {};
  for (const key of FIELDS) {
    const values = form.getAll(key).filter((v): v is string => typeof v === "string");
    raw[key] = key === "chaseInclude" ? values : values[0];
  }
  Object.assign(raw, chasingField(form.get("chasing")));
  const fields = parseFields(planFieldsSchema, raw, "Some of the plan's fields are not valid; see each field.");
  const file = form.get("file");
  if (!(file instanceof Blob))
    throw unprocessable("Choose the roster CSV to upload.", { fieldErrors: { file: ["Choose the roster CSV to upload."] }, formErrors: [] });
  if (file.size > MAX_CAMPAIGN_BYTES) throw tooLarge(TOO_LARGE);
  const template = fields.descriptionTemplate;
  // Each member is checked with the description they would be asked with (the template's longest period filled in).
  const parsed = parseCampaignCsv(new Uint8Array(await file.arrayBuffer()), { describe: (own) => describe(template, own, "2026-W48") });
  if (!parsed.ok) throw new ApiError(parsed.status, parsed.message);
  const { timeZone } = getConfig();
  const view = await makePlan(db, actor, fields, timeZone, parsed.rows);
  const invalid = view.invalidMembers;
  return ok(
    view,
    `Plan made: ${view.members} members${invalid > 0 ? `, ${invalid} marked invalid (see the members list)` : ""}. ${view.nextRunAt ? "The first period is asked at its time." : "It has no period left to ask."}`,
    201,
  );
});

export const { PUT, PATCH, DELETE } = otherMethods("GET", "POST");
