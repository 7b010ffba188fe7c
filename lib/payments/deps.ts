import "server-only";

import type { Db } from "@/lib/db/client";
import type { AmountUnit } from "@/lib/money";
import type { ServiceClient } from "@/lib/service/client";

export interface PaymentDeps {
  db: Db;
  service: ServiceClient;
  amountUnit: AmountUnit;
  /** Waits between verify attempts; the first attempt is immediate. */
  verifyDelaysMs: readonly number[];
}

export const DEFAULT_VERIFY_DELAYS_MS = [1_000, 3_000, 9_000, 27_000] as const;
