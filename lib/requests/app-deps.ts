import "server-only";

import { getConfig } from "@/lib/config";
import type { Db } from "@/lib/db/client";
import { getService } from "@/lib/service/app-client";

import type { RequestDeps } from "./deps";
import { getFetchGate } from "./fetch-gate";

export function requestDeps(db: Db): RequestDeps {
  const config = getConfig();
  return { db, service: getService(), amountUnit: config.service.amountUnit, webhookUrl: config.webhookUrl, fetchGate: getFetchGate() };
}
