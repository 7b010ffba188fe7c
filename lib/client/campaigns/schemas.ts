import { z } from "zod";

import { pageParamSchema } from "@/lib/client/http/page-param";

import { ROW_FILTERS } from "./view";

// Shared by the upload form and POST /api/campaigns.
export const campaignNameSchema = z
  .string({ error: "Give the campaign a name" })
  .trim()
  .min(1, "Give the campaign a name")
  .max(100, "At most 100 characters")
  .refine((d) => !/[\u0000-\u001f\u007f]/.test(d), "Remove line breaks and control characters");

export const campaignRowsQuerySchema = z.object({
  status: z.enum(ROW_FILTERS).optional().catch(undefined),
  page: pageParamSchema.default(1),
});
