import type { Db } from "@/lib/db/client";
import { spendServiceCall, type BudgetClass } from "@/lib/service/budget";
import { ServiceError, type ServiceOperation } from "@/lib/service/errors";

/** A `beforeApiCall` hook spending from the real shared budget at a tiny limit, refusing as the app's client does. */
export function budgetGate(db: Db, budgetClass: BudgetClass = "background", limitPerMinute = 3): (operation: ServiceOperation) => Promise<void> {
  return async (operation) => {
    const verdict = await spendServiceCall(db, budgetClass, limitPerMinute);
    if (!verdict.ok)
      throw new ServiceError({ kind: "rate_limited", operation, retryAfterMs: verdict.retryAfterMs, budgetRefused: true, budgetLimitPerMin: limitPerMinute });
  };
}
