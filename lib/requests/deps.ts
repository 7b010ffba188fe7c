import "server-only";

import type { AmountUnit } from "@/lib/money";
import type { Db } from "@/lib/db/client";
import type { ServiceClient } from "@/lib/service/client";

import type { FetchGate } from "./fetch-gate";

/** What the request logic needs, passed in so tests drive it with a real database and sandbox. */
export interface RequestDeps {
  db: Db;
  service: ServiceClient;
  amountUnit: AmountUnit;
  webhookUrl: string;
  /** Paces and shares viewers' on-demand reads; absent, every read asks the service. */
  fetchGate?: FetchGate;
}
