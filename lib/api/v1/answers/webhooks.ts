import { z } from "zod";

import type { Page } from "@/lib/client/http/page-param";
import type { EndpointView } from "@/lib/client/outbound/schemas";

import { assertSame, isoTime, page, type Same } from "../wire";

// Outgoing webhook endpoints as /api/v1 answers them: the dashboard's own view (docs/architecture.md "Outgoing webhooks").

const endpointShape = z.object({
  id: z.string(),
  url: z.string(),
  description: z.string(),
  eventTypes: z.union([z.array(z.string()), z.literal("all")]).meta({ description: 'The event types sent, or "all"' }),
  enabled: z.boolean(),
  disabledReason: z.string().nullable().meta({ description: "Why it was turned off by itself (failing too long); null otherwise" }),
  createdAt: isoTime,
  secretHint: z.string().meta({ description: "whsec_ and the secret's last 4 characters", example: "whsec_…a1B2" }),
  previousSecretUntil: isoTime.nullable().meta({ description: "When the previous secret stops signing (a rotation's overlap)" }),
  lastSuccessAt: isoTime.nullable(),
  failingSince: isoTime.nullable(),
});

export const endpointAnswer = endpointShape.meta({ id: "WebhookEndpoint" });

export const createdEndpointAnswer = endpointShape
  .extend({ secret: z.string().meta({ description: "The signing secret, answered this once" }) })
  .meta({ id: "WebhookEndpointCreated" });

export const endpointPageAnswer = page(endpointAnswer).meta({ id: "WebhookEndpointPage" });

export const deletedAnswer = z.object({}).meta({ id: "Empty" });

assertSame<Same<z.output<typeof endpointAnswer>, EndpointView>>(true);
assertSame<Same<z.output<typeof createdEndpointAnswer>, EndpointView & { secret: string }>>(true);
assertSame<Same<z.output<typeof endpointPageAnswer>, Page<EndpointView>>>(true);
