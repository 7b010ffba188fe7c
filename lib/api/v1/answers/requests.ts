import { z } from "zod";

import { REQUEST_STATUSES } from "@/lib/client/requests/constants";
import type { FundRequestView, RequestPage } from "@/lib/requests/view";

import { assertSame, isoTime, naira, page, type Same } from "../wire";

// A fund request as /api/v1 answers it: the dashboard's own view (docs/architecture.md "The API").

const party = z.object({ name: z.string(), tag: z.string() });
const sum = z.object({ count: z.number().int(), amount: naira });

export const fundRequestAnswer = z
  .object({
    requestId: z.string().nullable().meta({ description: "The service's id; null until the service answered" }),
    reference: z.string().nullable(),
    tag: z.string(),
    amount: naira,
    description: z.string(),
    businessReference: z.string().nullable(),
    status: z.enum(REQUEST_STATUSES),
    requestedBy: party.nullable(),
    requestedSentTo: party.nullable(),
    createdBy: z.object({ id: z.string(), name: z.string() }).nullable(),
    createdAt: isoTime,
    updatedAt: isoTime,
    paymentUuid: z.string().nullable(),
    error: z.string().nullable(),
    local: z.boolean(),
    decidedAt: isoTime.nullable(),
    campaign: z.object({ id: z.string(), name: z.string(), startedBy: z.string().nullable().optional() }).nullable().optional(),
  })
  .meta({ id: "FundRequest" });

export const requestPageAnswer = page(fundRequestAnswer)
  .extend({
    totals: sum.extend({
      byStatus: z.object({ sending: sum, pending: sum, accepted: sum, declined: sum, failed: sum, unknown: sum }),
    }),
  })
  .meta({ id: "FundRequestPage" });

assertSame<Same<z.output<typeof fundRequestAnswer>, FundRequestView>>(true);
assertSame<Same<z.output<typeof requestPageAnswer>, RequestPage>>(true);
