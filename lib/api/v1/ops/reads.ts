import { z } from "zod";

import { PAYER_FILTERS } from "@/lib/client/payers/view";
import { doNotAskPatchSchema } from "@/lib/client/payers/schemas";
import { tagSchema } from "@/lib/client/requests/schemas";
import { strictDayParamSchema } from "@/lib/client/time/day-param";

import { balanceAnswer } from "../answers/balance";
import { eventLogAnswer, eventLogQuery } from "../answers/events";
import { payerDetailAnswer, payerPageAnswer } from "../answers/payers";
import { paymentAnswer, paymentPageAnswer } from "../answers/payments";
import { operation } from "../operation";
import { pagingQuery } from "../wire";

// The balance, payments, payers and the event log through the API.

export const getBalance = operation({
  method: "GET",
  path: "/balance",
  operationId: "getBalance",
  summary: "The wallets' balances, as the service formats them",
  description: "Read through the deployment's shared cache: at most one service read per few seconds for everyone.",
  tag: "Balance",
  scope: "reports:read",
  success: { status: 200, description: "The balances", data: balanceAnswer },
  errors: [502, 503, 504],
});

const day = strictDayParamSchema.meta({ description: "A day in the business's time zone (Africa/Lagos), YYYY-MM-DD", example: "2026-11-27" });

export const listPayments = operation({
  method: "GET",
  path: "/payments",
  operationId: "listPayments",
  summary: "List payments received, newest first",
  tag: "Payments",
  scope: "payments:read",
  query: pagingQuery.extend({
    from: day,
    to: day,
    verified: z.enum(["unverified", "verified", "failed"], { error: "verified is unverified, verified or failed" }).optional(),
    tag: tagSchema.optional(),
  }),
  success: { status: 200, description: "One page of payments and the totals of the whole filter", data: paymentPageAnswer },
});

export const getPayment = operation({
  method: "GET",
  path: "/payments/{uuid}",
  operationId: "getPayment",
  summary: "One payment",
  tag: "Payments",
  scope: "payments:read",
  params: z.object({ uuid: z.string().meta({ description: "The payment's uuid" }) }),
  success: { status: 200, description: "The payment", data: paymentAnswer },
});

export const listPayers = operation({
  method: "GET",
  path: "/payers",
  operationId: "listPayers",
  summary: "List everyone asked or who paid",
  tag: "Payers",
  scope: "payers:read",
  query: pagingQuery.extend({
    q: z.string().trim().max(64, "q is at most 64 characters").optional().meta({ description: "Part of a tag or name" }),
    filter: z.enum(PAYER_FILTERS, { error: `filter is one of ${PAYER_FILTERS.join(", ")}` }).optional(),
  }),
  success: { status: 200, description: "One page of payers", data: payerPageAnswer },
});

const tagParam = z.object({ tag: z.string().meta({ description: "The payer's tag" }) });

export const getPayer = operation({
  method: "GET",
  path: "/payers/{tag}",
  operationId: "getPayer",
  summary: "One payer with their contact and history",
  tag: "Payers",
  scope: "payers:read",
  params: tagParam,
  success: { status: 200, description: "The payer", data: payerDetailAnswer },
});

export const patchPayer = operation({
  method: "PATCH",
  path: "/payers/{tag}",
  operationId: "updatePayer",
  summary: "Mark or clear do-not-ask",
  description: "A tag marked do-not-ask is refused by every way of asking (the dashboard, campaigns, plans, the API).",
  tag: "Payers",
  scope: "payers:write",
  params: tagParam,
  body: doNotAskPatchSchema.meta({ id: "PayerPatch" }),
  success: { status: 200, description: "The payer after the change", data: payerDetailAnswer },
});

export const listEvents = operation({
  method: "GET",
  path: "/events",
  operationId: "listEvents",
  summary: "The event log, oldest first after a cursor",
  description: "The same events the outgoing webhooks send, kept 30 days. Pass the answer's `next` as `after` to read on.",
  tag: "Events",
  scope: "events:read",
  query: eventLogQuery,
  success: { status: 200, description: "Events after the cursor", data: eventLogAnswer },
});
