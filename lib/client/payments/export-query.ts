import { z } from "zod";

import { strictDayParamSchema } from "@/lib/client/time/day-param";

// GET /api/payments/export (docs/architecture.md "Closing the books"): the accounting package and the days (in TIMEZONE, both ends included).
export const EXPORT_FORMATS = ["xero", "quickbooks"] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

export const exportQuerySchema = z.object({
  format: z.enum(EXPORT_FORMATS, { error: "Choose format=xero or format=quickbooks" }),
  from: strictDayParamSchema,
  to: strictDayParamSchema,
});
