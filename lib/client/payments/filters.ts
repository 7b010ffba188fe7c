import { z } from "zod";

import { pageParamSchema } from "@/lib/client/http/page-param";
import { tagFilterSchema } from "@/lib/client/requests/schemas";
import { dayParamSchema } from "@/lib/client/time/day-param";

// Shared by the payments page (URL search params) and GET /api/payments; the days are days in TIMEZONE.
export const paymentFilterSchema = z.object({
  verified: z.enum(["unverified", "verified", "failed"]).optional().catch(undefined),
  q: z.string().trim().max(100).optional().catch(undefined),
  tag: tagFilterSchema,
  from: dayParamSchema,
  to: dayParamSchema,
  page: pageParamSchema.default(1),
});

export type PaymentFilter = z.infer<typeof paymentFilterSchema>;
/** The filter form's fields: the list's rule without the page (a new filter starts at page 1). */
export const paymentFilterFormSchema = paymentFilterSchema.omit({ page: true });

export function paymentFilterFromSearch(get: (name: string) => string | null | undefined): PaymentFilter {
  const v = (name: string) => get(name) || undefined;
  return paymentFilterSchema.parse({ verified: v("verified"), q: v("q"), tag: v("tag"), from: v("from"), to: v("to"), page: v("page") });
}
