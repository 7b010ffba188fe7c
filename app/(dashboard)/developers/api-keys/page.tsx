import { HydrationBoundary, dehydrate } from "@tanstack/react-query";

import { ApiKeysScreen } from "@/components/api-keys/api-keys-screen";
import { keys } from "@/lib/client/query/options";
import { TextLink } from "@/components/ui/text-link";
import { staffActor } from "@/lib/actors/actor";
import { listApiKeys } from "@/lib/api-keys/manage";
import { requirePageStaff } from "@/lib/auth/page-guard";
import { getDb } from "@/lib/db";
import { getServerQueryClient } from "@/lib/query/server-client";

export const metadata = { title: "API keys" };

// The keys the business's own systems call /api/v1 with (docs/architecture.md "The API"): admins only.
export default async function ApiKeysPage() {
  const staff = await requirePageStaff("api_keys.manage", "/developers/api-keys");
  const client = getServerQueryClient();
  await client.prefetchQuery({ queryKey: keys.apiKeys, queryFn: async () => listApiKeys(await getDb(), staffActor(staff)) });
  return (
    <div className="space-y-4">
      <h1 className="text-2xl font-semibold">API keys</h1>
      <p className="text-sm text-slate-700">
        Your own systems call Fundboard&apos;s API with a key: <code>Authorization: Bearer fb_…</code>. Give each system its own key with only the scopes it
        needs; a key is shown whole once, when it is made or rolled, and what it does is recorded under its name and the person who made it.
      </p>
      <p className="text-sm text-slate-700">
        What each operation takes and answers is in the <TextLink href="/developers/api">API reference</TextLink>. To hear about changes as they happen, add an
        endpoint on <TextLink href="/developers/webhooks">Outgoing webhooks</TextLink>.
      </p>
      <HydrationBoundary state={dehydrate(client)}>
        <ApiKeysScreen />
      </HydrationBoundary>
    </div>
  );
}
