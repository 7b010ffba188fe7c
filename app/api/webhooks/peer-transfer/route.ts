import { getConfig } from "@/lib/config";
import { getDb } from "@/lib/db";
import { clientIp } from "@/lib/http/client-ip";
import { fail, ok } from "@/lib/http/envelope";
import { dropBalanceAfterPayment } from "@/lib/payments/after-record";
import { queueFollowUp } from "@/lib/payments/follow-up.job";
import { safeErrorSummary } from "@/lib/log/safe-error";
import { MAX_WEBHOOK_BYTES, processDelivery } from "@/lib/webhooks/intake";
import { deliveryStarted } from "@/lib/webhooks/intake-pressure";
import { rejectionLogFor } from "@/lib/webhooks/rejection-log";
import { readCapped } from "@/lib/http/read-capped";
import { otherMethods } from "@/lib/http/other-methods";

export const dynamic = "force-dynamic";

// A few dozen bytes for the service's client: gzip would cost more than it saves (the server's
// compression skips responses marked no-transform).
const NO_COMPRESSION = { "Cache-Control": "no-store, no-transform" };

/** The service's signed peer-transfer.success deliveries; no session, the signature is the credential. */
export async function POST(request: Request) {
  const done = deliveryStarted();
  try {
    const config = getConfig();
    const db = await getDb();
    const read = await readCapped(request, MAX_WEBHOOK_BYTES);
    const result = await processDelivery(
      {
        db,
        apiKey: config.service.apiKey,
        amountUnit: config.service.amountUnit,
        rejections: rejectionLogFor(db),
      },
      {
        raw: read.ok ? read.bytes : null,
        signature: request.headers.get("x-service-signature"),
        contentType: request.headers.get("content-type"),
        remoteAddr: clientIp(request.headers),
      },
    );
    // Before the 200 (docs/architecture.md): the follow-up job is stored, with those of the deliveries
    // arriving alongside; a repeat queues it again in case the one that recorded it died first.
    await Promise.all([result.paymentUuid ? queueFollowUp(result.paymentUuid) : null, result.recordedUuid ? dropBalanceAfterPayment() : null]);
    // A refusal's code is its status's default (401 bad signature, 400/413/415 the body, 500 ours): docs/architecture.md, "Error codes".
    return result.status === 200 ? ok({}, result.message, 200, NO_COMPRESSION) : fail(result.status, result.message, undefined, NO_COMPRESSION);
  } catch (error) {
    console.error(`[webhook] delivery failed: ${safeErrorSummary(error)}`);
    return fail(500, "The delivery could not be processed; please retry.", undefined, NO_COMPRESSION, "internal");
  } finally {
    done();
  }
}

export const { GET, PUT, PATCH, DELETE } = otherMethods("POST");
