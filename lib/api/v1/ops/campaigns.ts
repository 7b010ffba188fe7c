import { z } from "zod";

import { MAX_CAMPAIGN_ROWS } from "@/lib/campaigns/parse";
import { campaignNameSchema } from "@/lib/client/campaigns/schemas";
import { ROW_FILTERS } from "@/lib/client/campaigns/view";

import { campaignAnswer, campaignPageAnswer, campaignRowPageAnswer } from "../answers/campaigns";
import { operation } from "../operation";
import { pagingQuery } from "../wire";

// Campaigns through the API (docs/architecture.md "Campaigns"): the rows a file would hold, sent as JSON and checked
// row by row exactly as an uploaded file's (an invalid row is kept, marked, and never sent); start, pause, resume and
// cancel as the campaign page's buttons.

/** Room for MAX_CAMPAIGN_ROWS (10,000) rows at their longest (tag 32, description 140, reference 100 characters) with their JSON around them. */
export const CAMPAIGN_BODY_BYTES = 4 * 1024 * 1024;

const campaignRow = z
  .object({
    tag: z.string({ error: "tag is text" }).meta({ description: "The payer's tag (an @ is dropped)", example: "ada" }),
    amount: z
      .union([z.string(), z.number()], { error: "amount is naira as a string or number" })
      .meta({ description: "Naira, as a string or number with at most two decimals", example: "5000.00" }),
    description: z.string({ error: "description is text" }).meta({ description: "What the payer sees in their app", example: "November dues" }),
    businessReference: z
      .string({ error: "businessReference is text" })
      .nullable()
      .optional()
      .meta({ description: "Your own reference for the row (an invoice or member number)", example: "MEM-0042" }),
  })
  .strict();

export const createCampaignBody = z
  .object({
    name: campaignNameSchema.meta({ description: "The campaign's name, for people", example: "November dues" }),
    rows: z
      .array(campaignRow, { error: "rows is a list of {tag, amount, description}" })
      .min(1, "Send at least one row")
      .max(MAX_CAMPAIGN_ROWS, `A campaign takes at most ${MAX_CAMPAIGN_ROWS} rows; split them`)
      .meta({
        description: `1 to ${MAX_CAMPAIGN_ROWS.toLocaleString("en")} rows, each checked as a file's row would be: a row that is not valid (a bad tag or amount, a tag marked do-not-ask) is kept as invalid and never sent`,
      }),
    start: z.boolean({ error: "start is true or false" }).default(false).meta({ description: "Start sending at once; false leaves a draft to start later" }),
  })
  .strict()
  .meta({ id: "CreateCampaign" });

export const createCampaign = operation({
  method: "POST",
  path: "/campaigns",
  operationId: "createCampaign",
  summary: "Make a campaign from rows, and maybe start it",
  description:
    "Makes a draft campaign of the rows (as an uploaded file would), under the person who made the key; with `start: true` it starts sending at once, at the budget's pace. Refused (409) when that person already keeps the most drafts. A repeat with the same Idempotency-Key answers the first answer.",
  tag: "Campaigns",
  scope: "campaigns:write",
  body: createCampaignBody,
  success: { status: 201, description: "The campaign, drafted or started", data: campaignAnswer },
  errors: [413],
});

export const listCampaigns = operation({
  method: "GET",
  path: "/campaigns",
  operationId: "listCampaigns",
  summary: "List campaigns, newest first",
  tag: "Campaigns",
  scope: "campaigns:read",
  query: pagingQuery,
  success: { status: 200, description: "One page of campaigns", data: campaignPageAnswer },
});

const idParam = z.object({ id: z.string().meta({ description: "The campaign's id (a UUID)" }) });

export const getCampaign = operation({
  method: "GET",
  path: "/campaigns/{id}",
  operationId: "getCampaign",
  summary: "One campaign with its counts, amounts and rounds",
  tag: "Campaigns",
  scope: "campaigns:read",
  params: idParam,
  success: { status: 200, description: "The campaign", data: campaignAnswer },
});

export const listCampaignRows = operation({
  method: "GET",
  path: "/campaigns/{id}/rows",
  operationId: "listCampaignRows",
  summary: "A campaign's rows, in the order given",
  tag: "Campaigns",
  scope: "campaigns:read",
  params: idParam,
  query: pagingQuery.extend({
    status: z
      .enum(ROW_FILTERS, { error: `status is one of ${ROW_FILTERS.join(", ")}` })
      .optional()
      .meta({ description: "Only rows of this status; warning: rows flagged; not_paid: asked and not paid" }),
  }),
  success: { status: 200, description: "One page of rows", data: campaignRowPageAnswer },
});

function transition(name: "start" | "pause" | "resume" | "cancel", summary: string, description: string) {
  return operation({
    method: "POST",
    path: `/campaigns/{id}/${name}`,
    operationId: `${name}Campaign`,
    summary,
    description: `${description} Refused (409) when the campaign's status does not allow it.`,
    tag: "Campaigns",
    scope: "campaigns:write",
    params: idParam,
    success: { status: 200, description: "The campaign after the change", data: campaignAnswer },
  });
}

export const startCampaign = transition("start", "Start a draft campaign", "Its valid rows are sent at the budget's pace, under the person who made the key.");
export const pauseCampaign = transition("pause", "Pause a sending campaign", "No further rows are sent until it is resumed.");
export const resumeCampaign = transition("resume", "Resume a paused campaign", "Its rows are sent again, under the person who made the key.");
export const cancelCampaign = transition("cancel", "Cancel a campaign", "Rows not yet being sent are skipped; a draft cancelled is discarded.");
