"use client";

import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";

import { Card } from "@/components/ui/card";
import { endpointsQuery, keys } from "@/lib/client/query/options";

import { AddEndpointForm } from "./add-endpoint-form";
import { EndpointCard } from "./endpoint-card";

// /developers/webhooks: the endpoints, a secret shown once after it is made, rotated or revealed, and the add form.

export function WebhooksScreen() {
  const client = useQueryClient();
  const endpoints = useQuery(endpointsQuery());
  const [secret, setSecret] = useState<string | null>(null);
  return (
    <div className="space-y-4">
      {secret ? (
        <Card className="space-y-1 border-amber-300 bg-amber-50 p-4" data-testid="shown-secret">
          <p className="text-sm font-medium">Signing secret: copy it now, it is not shown again without an audited reveal.</p>
          <p className="font-mono text-sm break-all">{secret}</p>
        </Card>
      ) : null}
      {endpoints.data?.length === 0 ? <p className="text-sm text-slate-600">No endpoints yet.</p> : null}
      {endpoints.data?.map((e) => (
        <EndpointCard key={e.id} endpoint={e} onSecret={setSecret} />
      ))}
      <Card as="section" aria-labelledby="add-endpoint" className="space-y-3 p-4">
        <h2 id="add-endpoint" className="text-lg font-semibold">
          Add an endpoint
        </h2>
        <AddEndpointForm
          onAdded={(made) => {
            setSecret(`${made.url}: ${made.secret}`);
            void client.invalidateQueries({ queryKey: keys.endpoints });
          }}
        />
      </Card>
    </div>
  );
}
