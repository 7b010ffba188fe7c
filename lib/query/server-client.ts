import "server-only";

import { QueryClient } from "@tanstack/react-query";
import { cache } from "react";

/** One QueryClient per server request, for prefetching first paint. */
export const getServerQueryClient = cache(() => new QueryClient({ defaultOptions: { queries: { staleTime: 5_000 } } }));
