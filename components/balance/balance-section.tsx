"use client";

import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";

import { Button } from "@/components/ui/button";
import { ErrorPanel } from "@/components/ui/error-panel";
import { apiFetch } from "@/lib/client/http/api-fetch";
import type { BalanceView } from "@/lib/balance/view";
import { balanceQuery, keys } from "@/lib/client/query/options";

import { WalletCards, WalletCardsSkeleton } from "./wallet-cards";

export function BalanceSection() {
  const client = useQueryClient();
  const query = useQuery(balanceQuery());
  const [refreshing, setRefreshing] = useState(false);
  const [refreshError, setRefreshError] = useState<string | null>(null);

  async function refresh() {
    setRefreshing(true);
    try {
      // ?refresh=1 skips the cache once; the server still makes one call for everyone asking at once.
      client.setQueryData(keys.balance, await apiFetch<BalanceView>("/api/balance?refresh=1"));
      setRefreshError(null);
    } catch (error) {
      setRefreshError(error instanceof Error ? error.message : "The balances could not be refreshed. Try again.");
    } finally {
      setRefreshing(false);
    }
  }

  const button = (
    <Button variant="secondary" onClick={() => void refresh()} disabled={refreshing || query.isFetching}>
      {refreshing || query.isFetching ? "Refreshing…" : query.isError || refreshError ? "Try again" : "Refresh"}
    </Button>
  );

  if (query.isPending) return <WalletCardsSkeleton />;
  if (query.isError) return <ErrorPanel title="Balances are unavailable" message={query.error.message} action={button} />;
  return (
    <div className="space-y-2">
      {refreshError ? (
        <ErrorPanel title="Balances could not be refreshed" message={`${refreshError} The figures below are from the time shown.`} action={button} />
      ) : null}
      <WalletCards view={query.data} />
      {refreshError ? null : <div className="flex justify-end">{button}</div>}
    </div>
  );
}
