import "server-only";

import { getConfig } from "@/lib/config";
import type { Db } from "@/lib/db/client";
import type { AmountUnit } from "@/lib/client/money";
import { getBackgroundService } from "@/lib/service/app-client";
import type { ServiceClient } from "@/lib/service/client";

/** What linking and verification need; tests pass their own (a sandbox client). */
export interface PaymentDeps {
  db: Db;
  service: ServiceClient;
  amountUnit: AmountUnit;
}

/** The app's: the background service client (its share of the budget) and the configured unit. */
export function paymentDeps(db: Db): PaymentDeps {
  return { db, service: getBackgroundService(), amountUnit: getConfig().service.amountUnit };
}
