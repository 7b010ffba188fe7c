import { z } from "zod";

import { pageParamSchema } from "@/lib/client/http/page-param";
import { DESCRIPTION_MAX, REQUEST_STATUSES } from "./constants";
import { dayParamSchema } from "@/lib/client/time/day-param";

import { koboToNaira, nairaToKobo } from "@/lib/client/money";

// Shared by the new-request form and POST /api/requests.

export const TAG_RE = /^[A-Za-z0-9._-]{2,32}$/;
export const MAX_AMOUNT_KOBO = 10_000_000_00n; // ₦10,000,000: a sensible ceiling for one peer request.

export const tagSchema = z
  .string({ error: "Enter the person's tag" })
  .trim()
  .transform((t) => t.replace(/^@/, ""))
  .pipe(
    z
      .string()
      .min(1, "Enter the person's tag")
      .min(2, "A tag has at least 2 characters")
      .max(32, "A tag has at most 32 characters")
      .regex(TAG_RE, "A tag uses only letters, digits, dots, hyphens and underscores"),
  );

/** Naira as typed (string) or sent (number); out comes the two-decimal string, e.g. "1234.50". */
export const nairaAmountSchema = z.union([z.string(), z.number()], { error: "Enter an amount in naira" }).transform((value, ctx) => {
  const text = typeof value === "number" ? String(value) : value.trim().replace(/,/g, "");
  if (text === "") {
    ctx.addIssue({ code: "custom", message: "Enter an amount in naira" });
    return z.NEVER;
  }
  if (!/^\d+(\.\d+)?$/.test(text) && typeof value === "string") {
    ctx.addIssue({ code: "custom", message: "Enter an amount like 1500 or 1500.50" });
    return z.NEVER;
  }
  const kobo = nairaToKobo(text);
  if (kobo === null) {
    ctx.addIssue({ code: "custom", message: "Use at most two decimal places (kobo)" });
    return z.NEVER;
  }
  if (kobo <= 0n) {
    ctx.addIssue({ code: "custom", message: "The amount must be more than ₦0" });
    return z.NEVER;
  }
  if (kobo > MAX_AMOUNT_KOBO) {
    ctx.addIssue({ code: "custom", message: "The amount can be at most ₦10,000,000" });
    return z.NEVER;
  }
  return koboToNaira(kobo);
});

export const descriptionSchema = z
  .string({ error: "Enter a description the person will see" })
  .trim()
  .min(1, "Enter a description the person will see")
  .max(DESCRIPTION_MAX, `At most ${DESCRIPTION_MAX} characters`)
  .refine((d) => !/[\u0000-\u001f\u007f]/.test(d), "Remove line breaks and control characters");

export const idempotencyKeySchema = z
  .string({ error: "Missing idempotencyKey" })
  .regex(/^[A-Za-z0-9_-]{8,64}$/, "idempotencyKey must be 8–64 letters, digits, - or _");

/** The business's own reference (an invoice or member number): optional; empty is none. */
export const businessReferenceSchema = z
  .string({ error: "A reference is text" })
  .trim()
  .max(100, "Keep the reference under 100 characters")
  .refine((r) => !/[\u0000-\u001f\u007f]/.test(r), "Remove line breaks and control characters")
  .optional()
  .transform((r) => (r ? r : undefined));

export const newRequestSchema = z
  .object({
    tag: tagSchema,
    amount: nairaAmountSchema,
    description: descriptionSchema,
    businessReference: businessReferenceSchema,
    idempotencyKey: idempotencyKeySchema,
  })
  .strict();

export type NewRequestInput = z.input<typeof newRequestSchema>;
export type NewRequest = z.output<typeof newRequestSchema>;

/** A list's tag filter: trimmed, a leading @ dropped, at most 32 characters; anything else is no filter. */
export const tagFilterSchema = z
  .string()
  .trim()
  .transform((t) => t.replace(/^@/, ""))
  .pipe(z.string().max(32))
  .optional()
  .catch(undefined);

/** The campaign filter: one campaign's requests (its id), or `none`, the requests sent one at a time. */
export const campaignFilterSchema = z
  .union([
    z.literal("none"),
    z
      .string()
      .regex(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i)
      .transform((id) => id.toLowerCase()),
  ])
  .optional()
  .catch(undefined);

// Shared by the requests page (URL search params), GET /api/requests (the list and ?format=csv) and the filter form.
export const requestListQuerySchema = z.object({
  status: z.enum(REQUEST_STATUSES).optional().catch(undefined),
  tag: tagFilterSchema,
  campaign: campaignFilterSchema,
  from: dayParamSchema,
  to: dayParamSchema,
  page: pageParamSchema.default(1),
});
export type RequestListQuery = z.infer<typeof requestListQuerySchema>;
/** The filter form's fields: the list's rule without the page (a new filter starts at page 1). */
export const requestListFormSchema = requestListQuerySchema.omit({ page: true });

export function requestListFromSearch(get: (name: string) => string | null | undefined): RequestListQuery {
  const v = (name: string) => get(name) || undefined;
  return requestListQuerySchema.parse({ status: v("status"), tag: v("tag"), campaign: v("campaign"), from: v("from"), to: v("to"), page: v("page") });
}
