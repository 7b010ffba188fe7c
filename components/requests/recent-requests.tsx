"use client";

import { useQuery } from "@tanstack/react-query";

import { ErrorPanel } from "@/components/ui/error-panel";
import { TextLink } from "@/components/ui/text-link";
import { requestListQuery } from "@/lib/client/query/options";

import { RequestsTable } from "./requests-table";

export function RecentRequests() {
  const query = useQuery(requestListQuery({ page: 1 }));
  return (
    <section aria-labelledby="recent-requests" className="space-y-2">
      <div className="flex items-center justify-between">
        <h2 id="recent-requests" className="text-lg font-semibold">
          Recent requests
        </h2>
        <TextLink href="/requests" className="text-sm">
          All requests
        </TextLink>
      </div>
      {query.isError ? (
        <ErrorPanel title="Requests could not be loaded" message={query.error.message} />
      ) : (
        <RequestsTable items={(query.data?.items ?? []).slice(0, 5)} empty={query.isPending ? "Loading…" : "No requests yet."} />
      )}
    </section>
  );
}
