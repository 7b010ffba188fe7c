import { z } from "zod";

import { REQUEST_STATUSES } from "@/lib/client/requests/constants";
import { businessReferenceSchema, descriptionSchema, nairaAmountSchema, tagSchema } from "@/lib/client/requests/schemas";

import { fundRequestAnswer, requestPageAnswer } from "../answers/requests";
import { operation } from "../operation";
import { pagingQuery } from "../wire";

// Fund requests through the API: the same rules as the dashboard's form (its field schemas), the key's
// Idempotency-Key standing in for the form's own.

export const createRequestBody = z
  .object({
    tag: tagSchema.meta({ description: "The payer's tag in the consumer app (an @ is dropped)", example: "ada" }),
    amount: nairaAmountSchema.meta({ description: "Naira, as a string or number with at most two decimals", example: "5000.00" }),
    description: descriptionSchema.meta({ description: "What the payer sees in their app", example: "November dues" }),
    businessReference: businessReferenceSchema.meta({ description: "Your own reference (an invoice number)", example: "INV-1042" }),
  })
  .strict()
  .meta({ id: "CreateRequest" });

export const createRequest = operation({
  method: "POST",
  path: "/requests",
  operationId: "createRequest",
  summary: "Ask a person for money by their tag",
  description:
    "Sends a fund request to the service. Refused (422) for a tag marked do-not-ask. A repeat with the same Idempotency-Key answers the first answer.",
  tag: "Requests",
  scope: "requests:write",
  body: createRequestBody,
  success: { status: 201, description: "The request was sent", data: fundRequestAnswer },
  errors: [502, 503, 504],
});

export const listRequests = operation({
  method: "GET",
  path: "/requests",
  operationId: "listRequests",
  summary: "List fund requests, newest first",
  tag: "Requests",
  scope: "requests:read",
  query: pagingQuery.extend({
    status: z.enum(REQUEST_STATUSES, { error: `status is one of ${REQUEST_STATUSES.join(", ")}` }).optional(),
    tag: tagSchema.optional(),
  }),
  success: { status: 200, description: "One page of requests and the totals of the whole filter", data: requestPageAnswer },
});

export const getRequest = operation({
  method: "GET",
  path: "/requests/{requestId}",
  operationId: "getRequest",
  summary: "One fund request, its status read fresh from the service",
  tag: "Requests",
  scope: "requests:read",
  params: z.object({ requestId: z.string().meta({ description: "The service's request id" }) }),
  success: { status: 200, description: "The request", data: fundRequestAnswer },
  errors: [502, 503, 504],
});
