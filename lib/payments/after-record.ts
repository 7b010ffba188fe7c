import "server-only";

import { invalidateBalance } from "@/lib/balance/cache";
import { publish } from "@/lib/live/bus";

import type { PaymentDeps } from "./deps";
import { linkPayment } from "./link";
import { verifyPayment } from "./verify";

/** After the 200: tell the browsers, link to our request, then verify at the verify host (DESIGN §5.5–5.7). */
export async function afterPaymentRecorded(deps: PaymentDeps, uuid: string): Promise<void> {
  invalidateBalance();
  publish({ type: "payment.recorded", uuid, requestId: null });
  publish({ type: "balance.changed" });
  try {
    await linkPayment(deps, uuid);
  } catch (error) {
    console.error(`[webhook] linking payment ${uuid} failed`, error);
  }
  try {
    await verifyPayment(deps, uuid);
  } catch (error) {
    console.error(`[webhook] verifying payment ${uuid} failed`, error);
  }
}
