import { z } from "zod";

import { koboToNaira, nairaToKobo } from "@/lib/client/money";
import { descriptionSchema, nairaAmountSchema, tagSchema } from "@/lib/client/requests/schemas";

// Pay pages' bodies and answers (docs/architecture.md "Pay pages"): one schema per input, shared by the page's forms,
// the dashboard routes and the public route.

export const SLUG_RE = /^[a-z0-9](?:[a-z0-9-]{1,58})[a-z0-9]$/;
export const MAX_FIELDS = 5;
export const DEFAULT_DAILY_LIMIT = 500;
export const DEFAULT_SUCCESS_MESSAGE = "Paid, thank you.";

export const slugSchema = z
  .string({ error: "Choose the page's address (3–60 of a–z, 0–9 and -)" })
  .trim()
  .toLowerCase()
  .regex(SLUG_RE, "3–60 lower-case letters, digits and hyphens, not starting or ending with a hyphen");

const fieldSchema = z
  .object({
    label: z.string({ error: "Name the field" }).trim().min(1, "Name the field").max(40, "At most 40 characters"),
    required: z.boolean().default(false),
    // The business's own reference (an invoice or member number): carried into the request and the books.
    reference: z.boolean().default(false),
  })
  .strict();

export const payPageAmountSchema = z.union(
  [
    z.object({ fixed: nairaAmountSchema }).strict(),
    z
      .object({ min: nairaAmountSchema, max: nairaAmountSchema })
      .strict()
      .refine((a) => (nairaToKobo(a.min) ?? 0n) <= (nairaToKobo(a.max) ?? 0n), { message: "The least amount must not be more than the most", path: ["max"] }),
  ],
  { error: 'Send { "fixed": "5000" } or { "min": "1000", "max": "50000" }' },
);
export type PayPageAmount = z.output<typeof payPageAmountSchema>;

const fieldsSchema = z
  .array(fieldSchema, { error: "Fields are a list of { label, required }" })
  .max(MAX_FIELDS, `At most ${MAX_FIELDS} extra fields`)
  .refine((fs) => fs.filter((f) => f.reference).length <= 1, "At most one field is the reference")
  .default([]);

const expiresAtSchema = z.iso
  .datetime({ offset: true, error: "An expiry is a date and time (ISO 8601)" })
  .refine((t) => {
    const y = new Date(t).getUTCFullYear();
    return y >= 2000 && y <= 2100;
  }, "Choose an expiry between the years 2000 and 2100")
  .nullable();

const payPageFields = {
  title: descriptionSchema.pipe(z.string().max(60, "At most 60 characters")),
  description: z.string({ error: "The description is text" }).trim().max(500, "At most 500 characters").default(""),
  amount: payPageAmountSchema,
  fields: fieldsSchema,
  planId: z.uuid({ error: "Choose a plan from the list" }).nullable().default(null),
  active: z.boolean().default(true),
  expiresAt: expiresAtSchema.default(null),
  maxPayments: z.number({ error: "The most payments is a whole number" }).int("A whole number").min(1, "At least 1").max(1_000_000).nullable().default(null),
  successMessage: z.string().trim().min(1, "Say what the payer sees once paid").max(200, "At most 200 characters").default(DEFAULT_SUCCESS_MESSAGE),
  dailyLimit: z.number({ error: "The daily limit is a whole number" }).int("A whole number").min(1, "At least 1").max(100_000).default(DEFAULT_DAILY_LIMIT),
};

/** POST /api/pay-pages. A plan's page has a fixed amount: paying joins the plan at it. */
export const payPageCreateSchema = z
  .object({ slug: slugSchema, ...payPageFields })
  .strict()
  .refine((p) => !p.planId || "fixed" in p.amount, { message: "A plan's page asks a fixed amount (the member's dues)", path: ["amount"] });
export type PayPageCreate = z.output<typeof payPageCreateSchema>;

/** PATCH /api/pay-pages/:id: any of the fields; the slug stays (printed QR codes point at it). */
export const payPagePatchSchema = z
  .object({
    title: payPageFields.title.optional(),
    description: z.string().trim().max(500, "At most 500 characters").optional(),
    amount: payPageAmountSchema.optional(),
    fields: z.array(fieldSchema).max(MAX_FIELDS, `At most ${MAX_FIELDS} extra fields`).optional(),
    planId: z.uuid({ error: "Choose a plan from the list" }).nullable().optional(),
    active: z.boolean().optional(),
    expiresAt: expiresAtSchema.optional(),
    maxPayments: payPageFields.maxPayments.unwrap().unwrap().nullable().optional(),
    successMessage: z.string().trim().min(1, "Say what the payer sees once paid").max(200).optional(),
    dailyLimit: payPageFields.dailyLimit.unwrap().optional(),
  })
  .strict()
  .refine((p) => Object.keys(p).length > 0, "Send at least one field to change");
export type PayPagePatch = z.output<typeof payPagePatchSchema>;

/** POST /api/public/pay/:slug. `fields`: the answers to the page's fields, in order; `altcha`: the solved challenge. */
export const paySubmitSchema = z
  .object({
    tag: tagSchema,
    amount: nairaAmountSchema.optional(),
    fields: z.array(z.string().trim().max(100, "Keep each answer under 100 characters"), { error: "Answers are a list of text" }).max(MAX_FIELDS).default([]),
    altcha: z.string({ error: "Prove you are a person: the check did not finish" }).min(1, "Prove you are a person: the check did not finish").max(4_000),
  })
  .strict();
export type PaySubmit = z.output<typeof paySubmitSchema>;

/** Whether `amount` (naira text) is within the page's amount; the fixed amount is the only one a fixed page takes. */
export function amountFits(page: PayPageAmount, amount: string): boolean {
  const kobo = nairaToKobo(amount);
  if (kobo === null) return false;
  if ("fixed" in page) return kobo === nairaToKobo(page.fixed);
  return kobo >= (nairaToKobo(page.min) ?? 0n) && kobo <= (nairaToKobo(page.max) ?? 0n);
}

export { koboToNaira };
