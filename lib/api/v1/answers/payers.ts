import { z } from "zod";

import { REQUEST_STATUSES } from "@/lib/client/requests/constants";
import type { PayerDetail, PayerPage } from "@/lib/client/payers/view";

import { assertSame, isoTime, naira, page, type Same } from "../wire";

// A payer as /api/v1 answers it: the dashboard's views; contact masked unless the key holds payers:read, never a bvn.

export const payerAnswer = z
  .object({
    tag: z.string(),
    name: z.string().nullable(),
    asked: z.number().int(),
    accepted: z.number().int(),
    declined: z.number().int(),
    unanswered: z.number().int(),
    failed: z.number().int(),
    collected: naira,
    payments: z.number().int(),
    lastActivityAt: isoTime.nullable(),
    medianAnswerSeconds: z.number().nullable(),
    doNotAsk: z.boolean(),
    overpaid: z.number().int(),
  })
  .meta({ id: "Payer" });

export const payerPageAnswer = page(payerAnswer)
  .extend({ totalCapped: z.boolean().meta({ description: "True when more match than the count (10,000) says" }) })
  .meta({ id: "PayerPage" });

export const payerDetailAnswer = z
  .object({
    payer: payerAnswer,
    contact: z.object({ name: z.string(), email: z.string().nullable(), phone: z.string().nullable() }).nullable(),
    doNotAsk: z.object({ note: z.string(), markedBy: z.string(), markedAt: isoTime }).nullable(),
    requests: z.array(
      z.object({
        id: z.string(),
        requestId: z.string().nullable(),
        amount: naira,
        description: z.string(),
        status: z.enum(REQUEST_STATUSES),
        createdAt: isoTime,
        decidedAt: isoTime.nullable(),
        campaign: z.object({ id: z.string(), name: z.string() }).nullable(),
      }),
    ),
    payments: z.array(
      z.object({
        uuid: z.string(),
        amount: naira,
        fees: naira,
        settledAmount: naira,
        description: z.string(),
        verification: z.enum(["unverified", "verified", "failed"]),
        recordedByHand: z.boolean(),
        receivedAt: isoTime,
      }),
    ),
    campaigns: z.array(z.object({ id: z.string(), name: z.string(), round: z.number().int() })),
  })
  .meta({ id: "PayerDetail" });

assertSame<Same<z.output<typeof payerPageAnswer>, PayerPage>>(true);
assertSame<Same<z.output<typeof payerDetailAnswer>, PayerDetail>>(true);
