import { HydrationBoundary, dehydrate } from "@tanstack/react-query";

import { WebhooksScreen } from "@/components/outbound/webhooks-screen";
import { TextLink } from "@/components/ui/text-link";
import { staffActor } from "@/lib/actors/actor";
import { requirePageStaff } from "@/lib/auth/page-guard";
import { keys } from "@/lib/client/query/options";
import { getDb } from "@/lib/db";
import { listEndpointViews } from "@/lib/outbound/manage";
import { getServerQueryClient } from "@/lib/query/server-client";

export const metadata = { title: "Outgoing webhooks" };

// The business's own systems' endpoints (docs/architecture.md "Outgoing webhooks"): admins only.
export default async function OutgoingWebhooksPage() {
  const staff = await requirePageStaff("webhooks.read", "/developers/webhooks");
  const client = getServerQueryClient();
  await client.prefetchQuery({ queryKey: keys.endpoints, queryFn: async () => listEndpointViews(await getDb(), staffActor(staff)) });
  return (
    <div className="space-y-4">
      <h1 className="text-2xl font-semibold">Outgoing webhooks</h1>
      <p className="text-sm text-slate-700">
        Your own systems (an ERP, your app, an automation tool) hear what happens here as it happens: each event is POSTed, signed with the endpoint&apos;s
        secret (Standard Webhooks: the <code>webhook-id</code>, <code>webhook-timestamp</code> and <code>webhook-signature</code> headers), and tried again for
        about three days until it gets a 2xx answer.
      </p>
      <p className="text-sm text-slate-700">
        Your systems can also ask Fundboard themselves: make a key on <TextLink href="/developers/api-keys">API keys</TextLink> and read the{" "}
        <TextLink href="/developers/api">API reference</TextLink>.
      </p>
      <HydrationBoundary state={dehydrate(client)}>
        <WebhooksScreen />
      </HydrationBoundary>
    </div>
  );
}
