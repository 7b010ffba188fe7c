import { z } from "zod";

import { endpointCreateSchema, endpointPatchSchema, MAX_ENDPOINTS } from "@/lib/client/outbound/schemas";

import { createdEndpointAnswer, deletedAnswer, endpointAnswer, endpointPageAnswer } from "../answers/webhooks";
import { operation } from "../operation";

// Outgoing webhook endpoints through the API (docs/architecture.md "Outgoing webhooks"): the same bodies as the
// dashboard's forms; the webhooks:write scope grants webhooks.manage.

const idParam = z.object({ id: z.string().meta({ description: "The endpoint's id (a UUID)" }) });

export const listWebhookEndpoints = operation({
  method: "GET",
  path: "/webhook-endpoints",
  operationId: "listWebhookEndpoints",
  summary: "List the webhook endpoints",
  description: `Every endpoint on one page (there are at most ${MAX_ENDPOINTS}).`,
  tag: "Webhook endpoints",
  scope: "webhooks:read",
  success: { status: 200, description: "Every endpoint", data: endpointPageAnswer },
});

export const createWebhookEndpoint = operation({
  method: "POST",
  path: "/webhook-endpoints",
  operationId: "createWebhookEndpoint",
  summary: "Add a webhook endpoint",
  description: `Its signing secret is in this answer only. https only in live mode; a private address is refused (422 naming url). At most ${MAX_ENDPOINTS} endpoints (409).`,
  tag: "Webhook endpoints",
  scope: "webhooks:write",
  body: endpointCreateSchema.meta({ id: "CreateWebhookEndpoint" }),
  success: { status: 201, description: "The endpoint and its signing secret", data: createdEndpointAnswer },
});

export const getWebhookEndpoint = operation({
  method: "GET",
  path: "/webhook-endpoints/{id}",
  operationId: "getWebhookEndpoint",
  summary: "One webhook endpoint",
  tag: "Webhook endpoints",
  scope: "webhooks:read",
  params: idParam,
  success: { status: 200, description: "The endpoint", data: endpointAnswer },
});

export const updateWebhookEndpoint = operation({
  method: "PATCH",
  path: "/webhook-endpoints/{id}",
  operationId: "updateWebhookEndpoint",
  summary: "Change a webhook endpoint",
  description: "Any of url, description, eventTypes, enabled. Turning one on again clears why it was turned off.",
  tag: "Webhook endpoints",
  scope: "webhooks:write",
  params: idParam,
  body: endpointPatchSchema.meta({ id: "WebhookEndpointPatch" }),
  success: { status: 200, description: "The endpoint after the change", data: endpointAnswer },
});

export const deleteWebhookEndpoint = operation({
  method: "DELETE",
  path: "/webhook-endpoints/{id}",
  operationId: "deleteWebhookEndpoint",
  summary: "Delete a webhook endpoint",
  description: "It receives nothing more.",
  tag: "Webhook endpoints",
  scope: "webhooks:write",
  params: idParam,
  success: { status: 200, description: "Deleted", data: deletedAnswer },
});
