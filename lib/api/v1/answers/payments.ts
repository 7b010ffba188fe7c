import { z } from "zod";

import type { PaymentPage, PaymentView } from "@/lib/payments/view";

import { assertSame, isoTime, naira, page, type Same } from "../wire";

// A payment as /api/v1 answers it: the dashboard's view; e-mail and phone masked unless the key holds payers:read.

export const paymentAnswer = z
  .object({
    uuid: z.string(),
    type: z.string(),
    amount: naira.meta({ description: "What the payer was asked for" }),
    actualAmount: naira.meta({ description: "What the payer actually paid" }),
    settledAmount: naira,
    fees: naira,
    description: z.string(),
    customer: z.object({
      name: z.string(),
      tag: z.string(),
      email: z.string().nullable().meta({ description: "Masked unless the key holds payers:read" }),
      phone: z.string().nullable().meta({ description: "Masked unless the key holds payers:read" }),
      avatar: z.string().nullable(),
    }),
    verification: z.enum(["unverified", "verified", "failed"]),
    verificationError: z.string().nullable(),
    verifiedAt: isoTime.nullable(),
    requestId: z.string().nullable(),
    businessReference: z.string().nullable(),
    linkNote: z.string().nullable(),
    linkConfirmed: z.boolean(),
    receivedAt: isoTime,
    recordedByHand: z.object({ by: z.string().nullable(), reference: z.string().nullable() }).nullable(),
  })
  .meta({ id: "Payment" });

export const paymentPageAnswer = page(paymentAnswer)
  .extend({ totals: z.object({ count: z.number().int(), amount: naira, fees: naira, settled: naira }) })
  .meta({ id: "PaymentPage" });

assertSame<Same<z.output<typeof paymentAnswer>, PaymentView>>(true);
assertSame<Same<z.output<typeof paymentPageAnswer>, PaymentPage>>(true);
