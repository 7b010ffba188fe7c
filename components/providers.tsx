"use client";

import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { useState, type ReactNode } from "react";

import { TimeZoneProvider } from "@/components/ui/local-time";

export function Providers({ timeZone, children }: { timeZone: string; children: ReactNode }) {
  // One client per browser session; created lazily so the server never shares one between requests.
  const [client] = useState(() => new QueryClient({ defaultOptions: { queries: { staleTime: 5_000, retry: 1 } } }));
  return (
    <QueryClientProvider client={client}>
      <TimeZoneProvider timeZone={timeZone}>{children}</TimeZoneProvider>
    </QueryClientProvider>
  );
}
