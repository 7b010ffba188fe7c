import "server-only";

import { invalidateBalance } from "@/lib/balance/cache";
import { publish } from "@/lib/live/bus";

import type { PaymentDeps } from "./deps";
import { linkPayment } from "./link";
import { verifyPayment } from "./verify";
import { safeErrorSummary } from "@/lib/log/safe-error";

/** At once after the commit: the browsers hear of the payment and the balance is read afresh (DESIGN §5.7). */
export function announcePayment(uuid: string): void {
  invalidateBalance();
  publish({ type: "payment.recorded", uuid, requestId: null });
  publish({ type: "balance.changed" });
}

/** Queued after the answer: link to our request, then verify at the verify host (DESIGN §5.5–5.6). */
export async function followUpPayment(deps: PaymentDeps, uuid: string): Promise<void> {
  try {
    await linkPayment(deps, uuid);
  } catch (error) {
    console.error(`[webhook] linking payment ${uuid} failed: ${safeErrorSummary(error)}`);
  }
  try {
    await verifyPayment(deps, uuid);
  } catch (error) {
    console.error(`[webhook] verifying payment ${uuid} failed: ${safeErrorSummary(error)}`);
  }
}
