import "server-only";

import { getConfig } from "@/lib/config";
import type { Db } from "@/lib/db/client";
import type { AmountUnit } from "@/lib/client/money";
import { getService } from "@/lib/service/app-client";
import type { ServiceClient } from "@/lib/service/client";

import { getFetchGate, type FetchGate } from "./fetch-gate";

/** What the request logic needs, passed in so tests drive it with a real database and sandbox. */
export interface RequestDeps {
  db: Db;
  service: ServiceClient;
  amountUnit: AmountUnit;
  webhookUrl: string;
  /** Paces and shares viewers' on-demand reads; absent, every read asks the service. */
  fetchGate?: FetchGate;
}

/**
 * The app's: by default the people's service client (a create spends a send, a status a read) and the shared fetch
 * gate. The API's routes pass `getApiService()`, so a key's calls spend from the `api` class (docs/architecture.md
 * "The service budget").
 */
export function requestDeps(db: Db, service: ServiceClient = getService()): RequestDeps {
  const config = getConfig();
  return { db, service, amountUnit: config.service.amountUnit, webhookUrl: config.webhookUrl, fetchGate: getFetchGate() };
}
