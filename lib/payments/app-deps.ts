import "server-only";

import { getConfig } from "@/lib/config";
import type { Db } from "@/lib/db/client";
import { getBackgroundService } from "@/lib/service/app-client";

import { DEFAULT_VERIFY_DELAYS_MS, type PaymentDeps } from "./deps";

export function paymentDeps(db: Db, verifyDelaysMs: readonly number[] = DEFAULT_VERIFY_DELAYS_MS): PaymentDeps {
  return { db, service: getBackgroundService(), amountUnit: getConfig().service.amountUnit, verifyDelaysMs };
}
