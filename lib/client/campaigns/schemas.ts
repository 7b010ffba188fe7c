import { z } from "zod";

import { pageParamSchema } from "@/lib/client/http/page-param";

import { ASK_AGAIN_STATES } from "./constants";
import { ROW_FILTERS } from "./view";

/** The largest campaign file: POST /api/campaigns refuses more (413), and the upload form checks it before sending. */
export const MAX_CAMPAIGN_BYTES = 2 * 1024 * 1024;
const MAX_MIB = MAX_CAMPAIGN_BYTES / (1024 * 1024);

// Shared by the upload form and POST /api/campaigns.
export const campaignNameSchema = z
  .string({ error: "Give the campaign a name" })
  .trim()
  .min(1, "Give the campaign a name")
  .max(100, "At most 100 characters")
  .refine((d) => !/[\u0000-\u001f\u007f]/.test(d), "Remove line breaks and control characters");

/** The one chosen file of a file input (its FileList), or null. */
function chosenFile(value: unknown): File | null {
  if (typeof File !== "undefined" && value instanceof File) return value;
  if (typeof FileList !== "undefined" && value instanceof FileList) return value.item(0);
  return null;
}

/**
 * A file input's one CSV, checked in the browser for what needs no reading: there, not empty, within the handler's
 * limit. The server checks it all again, from the multipart body, with the CSV itself (lib/campaigns/parse.ts).
 */
export const csvFileSchema = z.unknown().transform((value, ctx) => {
  const file = chosenFile(value);
  const problem = !file
    ? "Choose the CSV file to upload"
    : file.size === 0
      ? "The file is empty. Choose a CSV with a header row and at least one row."
      : file.size > MAX_CAMPAIGN_BYTES
        ? `The file is larger than ${MAX_MIB} MiB (${file.size.toLocaleString("en")} bytes). Split it into smaller files.`
        : null;
  if (!file || problem) {
    ctx.addIssue({ code: "custom", message: problem ?? "Choose the CSV file to upload" });
    return z.NEVER;
  }
  return file;
});

/** The upload form (components/campaigns/new-campaign-form.tsx): the handler's name rule and the file's checks. */
export const campaignUploadFormSchema = z.object({
  name: campaignNameSchema,
  file: csvFileSchema,
});

export const campaignRowsQuerySchema = z.object({
  status: z.enum(ROW_FILTERS).optional().catch(undefined),
  page: pageParamSchema.default(1),
});

// Shared by the ask-again form on a campaign page and POST /api/campaigns/:id/ask-again (docs/architecture.md "Payers and chasing").
export const askAgainSchema = z.object({
  include: z
    .array(z.enum(ASK_AGAIN_STATES, { error: "Choose from declined, failed and unanswered" }), { error: "Choose whom to ask again" })
    .min(1, "Choose whom to ask again: declined, failed or unanswered")
    .transform((list) => [...new Set(list)]),
  unansweredForHours: z.coerce
    .number({ error: "Enter a number of hours" })
    .int("Enter whole hours")
    .min(0, "Enter 0 or more hours")
    .max(24 * 90, "At most 2,160 hours (90 days)")
    .default(0),
  // Ask people still cooling down after a decline, for this round only (audited).
  overrideCooldown: z.boolean({ error: "Say true or false" }).default(false),
});
export type AskAgainInput = z.infer<typeof askAgainSchema>;
