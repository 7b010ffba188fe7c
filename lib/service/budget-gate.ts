import "server-only";

import type { Db } from "@/lib/db/client";
import { sleep } from "@/lib/util/sleep";

import { NO_HOLD, spendServiceCall, type BudgetClass, type BudgetHold } from "./budget";
import { ServiceError, type ServiceOperation } from "./errors";

// How long a call with no room waits for a slot before it is refused (docs/architecture.md "The service budget" "waits briefly"): a person
// at the form longest, a person reading a little (a burst of retries finds the next slot of its 10 s), a
// business's program as long as a read (its HTTP client is waiting on our answer, and the 503's Retry-After
// tells it the rest), a job not at all (its queue retries it; pay pages' calls are made by a job too).
// Table: docs/architecture.md "Pace and retry policies".
const WAIT_MS: Record<BudgetClass, number> = { send: 3_000, api: 2_000, read: 2_000, background: 0, public: 0 };

/** Refuses a call the deployment's shared budget has no room for in its class, with when to try again. */
export function budgetGate(
  db: () => Promise<Db>,
  classOf: (operation: ServiceOperation) => BudgetClass,
  limitPerMinute: number,
  holdFor: (operation: ServiceOperation) => Promise<BudgetHold> = async () => NO_HOLD,
): (operation: ServiceOperation) => Promise<void> {
  return async (operation) => {
    const budgetClass = classOf(operation);
    const deadline = Date.now() + WAIT_MS[budgetClass];
    for (;;) {
      const verdict = await spendServiceCall(await db(), budgetClass, limitPerMinute, await holdFor(operation));
      if (verdict.ok) return;
      if (Date.now() + verdict.retryAfterMs > deadline)
        throw new ServiceError({
          kind: "rate_limited",
          operation,
          retryAfterMs: verdict.retryAfterMs,
          detail: `shared budget has no room for a ${budgetClass} call`,
          budgetRefused: true,
          budgetLimitPerMin: limitPerMinute,
        });
      await sleep(verdict.retryAfterMs);
    }
  };
}
