import { z } from "zod";

import { koboToNaira, nairaToKobo } from "@/lib/client/money";
import { nairaAmountSchema } from "@/lib/client/requests/schemas";

// Shared by the resolve form on /exceptions and POST /api/exceptions/:id/resolve.

/** Fees in naira: zero or more, at most two decimals. */
const feesSchema = z.union([z.string(), z.number()], { error: "Enter the fees in naira (0 when none)" }).transform((value, ctx) => {
  const text = typeof value === "number" ? String(value) : value.trim().replace(/,/g, "");
  const kobo = text === "" ? 0n : /^\d+(\.\d+)?$/.test(text) ? nairaToKobo(text) : null;
  if (kobo === null || kobo < 0n) {
    ctx.addIssue({ code: "custom", message: "Enter the fees like 0, 50 or 52.50 (at most two decimal places)" });
    return z.NEVER;
  }
  return koboToNaira(kobo);
});

/**
 * A payment a person records by hand to settle a lost payment notice: what the payer paid, the fees taken, and the
 * business's own reference for it (a bank statement line, say). Settled is paid less fees.
 */
export const handPaymentSchema = z
  .object({
    amount: nairaAmountSchema,
    fees: feesSchema,
    reference: z
      .string({ error: "Enter a reference for this payment" })
      .trim()
      .min(1, "Enter a reference for this payment (from the bank statement or the service)")
      .max(100, "Keep the reference under 100 characters")
      .refine((r) => !/[\u0000-\u001f\u007f]/.test(r), "Remove line breaks and control characters"),
  })
  .superRefine((p, ctx) => {
    const amount = nairaToKobo(p.amount);
    const fees = nairaToKobo(p.fees);
    if (amount !== null && fees !== null && fees >= amount)
      ctx.addIssue({ code: "custom", path: ["fees"], message: "The fees must be less than the amount paid" });
  });
export type HandPayment = z.output<typeof handPaymentSchema>;

export const resolveExceptionSchema = z.object({
  note: z
    .string({ error: "Write a note saying how this was settled" })
    .trim()
    .min(1, "Write a note saying how this was settled")
    .max(1000, "Keep the note under 1,000 characters"),
  // The service's request id to link an unlinked payment to; empty or absent: resolve without linking.
  requestId: z
    .string()
    .trim()
    .max(64, "A request id is at most 64 characters")
    .regex(/^[A-Za-z0-9_-]*$/, "A request id is letters, digits, - and _")
    .optional()
    .transform((v) => (v ? v : undefined)),
  // Link it although the payment's amount is not the request's (both amounts go into the audit log).
  acceptDifferentAmount: z.boolean({ error: "Say true or false" }).optional(),
  // For an accepted request with no payment notice: the payment, recorded by hand (not verified).
  payment: handPaymentSchema.optional(),
});
export type ResolveExceptionInput = z.input<typeof resolveExceptionSchema>;
