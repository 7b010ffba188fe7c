// Signed peer-transfer.success deliveries as the service sends them, a share of them repeats of earlier ones.
import { randomUUID } from "node:crypto";
import { performance } from "node:perf_hooks";

import { deliverySignature } from "@/tests/support/sign-delivery";
import { payload } from "@/tests/support/payloads";

export interface PreparedDelivery {
  uuid: string;
  body: string;
  signature: string;
  repeat: boolean;
}

export interface DeliveryOutcome {
  uuid: string;
  /** 0: no answer (connection error or timeout). */
  status: number;
  ms: number;
}

/** `count` deliveries of which round(count × repeatShare) repeat an earlier one byte for byte, in shuffled order. */
export function prepareDeliveries(count: number, repeatShare: number, apiKey: string): PreparedDelivery[] {
  const repeats = Math.round(count * repeatShare);
  const originals: PreparedDelivery[] = [];
  for (let i = 0; i < count - repeats; i++) {
    const uuid = randomUUID();
    const body = JSON.stringify(payload({ uuid, description: `Bench delivery ${i}` }));
    originals.push({ uuid, body, signature: deliverySignature(body, apiKey), repeat: false });
  }
  const all = [...originals];
  for (let i = 0; i < repeats; i++) {
    const original = originals[Math.floor(Math.random() * originals.length)];
    if (original) all.push({ ...original, repeat: true });
  }
  for (let i = all.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [all[i], all[j]] = [all[j] as PreparedDelivery, all[i] as PreparedDelivery];
  }
  return all;
}

/** Posts every delivery with `concurrency` in flight; wall time from the first send to the last answer. */
export async function sendAll(
  url: string,
  deliveries: readonly PreparedDelivery[],
  concurrency: number,
): Promise<{ outcomes: DeliveryOutcome[]; elapsedMs: number }> {
  const outcomes: DeliveryOutcome[] = new Array(deliveries.length);
  let next = 0;
  const started = performance.now();
  const worker = async () => {
    for (;;) {
      const index = next++;
      const d = deliveries[index];
      if (!d) return;
      const t0 = performance.now();
      let status = 0;
      try {
        const res = await fetch(url, {
          method: "POST",
          headers: { "content-type": "application/json", "x-service-signature": d.signature },
          body: d.body,
          signal: AbortSignal.timeout(30_000),
        });
        await res.arrayBuffer();
        status = res.status;
      } catch {
        status = 0;
      }
      outcomes[index] = { uuid: d.uuid, status, ms: performance.now() - t0 };
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, deliveries.length) }, worker));
  return { outcomes, elapsedMs: performance.now() - started };
}
